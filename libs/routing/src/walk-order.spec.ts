import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortByKey, sortVenues } from './walk-order';

describe('sortByKey', () => {
  it('orders venues as the walks rank them: better key first, ties by venue index', () => {
    fc.assert(
      fc.property(
        // Few distinct keys, so that ties are common; lengths across the insertion runs and merges.
        fc.array(
          fc.integer({ min: 0, max: 12 }).map((k) => k * 0.25),
          { maxLength: 90 },
        ),
        fc.constantFrom(-1, 1),
        fc.boolean(),
        (raw, better, shuffled) => {
          const n = raw.length;
          const keys = Float64Array.from(raw);
          const a = Int32Array.from({ length: n }, (_, i) => i);
          // The walk fills its row in venue order; a shuffled row checks the tie-break does not lean on it.
          if (shuffled) a.reverse();
          const want = [...a].sort((x, y) => (keys[y]! - keys[x]!) * better || x - y);
          sortByKey(a, n, keys, better, new Int32Array(n));
          expect([...a]).toEqual(want);
        },
      ),
    );
  });
});

describe('sortVenues', () => {
  it('sorts venue indices ascending and moves the attached codes with them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 40 }), (raw) => {
        const a = Int32Array.from(raw);
        const also = Uint8Array.from(raw, (v) => v % 7);
        sortVenues(a, a.length, also);
        const want = [...raw].sort((x, y) => x - y);
        expect([...a]).toEqual(want);
        expect([...also]).toEqual(want.map((v) => v % 7));
        const b = Int32Array.from(raw);
        sortVenues(b, b.length, null);
        expect([...b]).toEqual(want);
      }),
    );
  });
});
