import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderMemo, sortByKey } from './walk-order';

describe('OrderMemo', () => {
  it('sorts as sortByKey does, whatever order it kept from the walks before', () => {
    const sides = [{}, {}];
    fc.assert(
      fc.property(
        // Walks one after another over a few sides, each over a subset of up to 90 venues whose keys
        // move a little or a lot: few distinct keys, so that ties are common.
        fc.array(
          fc.record({
            side: fc.integer({ min: 0, max: 1 }),
            better: fc.constantFrom(-1, 1),
            keys: fc.array(
              fc.integer({ min: -6, max: 12 }).map((k) => k * 0.25),
              { maxLength: 90 },
            ),
            skip: fc.array(fc.boolean(), { maxLength: 90 }),
          }),
          { maxLength: 8 },
        ),
        (walks) => {
          const memo = new OrderMemo();
          for (const { side, better, keys: raw, skip } of walks) {
            const count = raw.length;
            const keys = Float64Array.from(raw);
            const venues = [...Array(count).keys()].filter((v) => skip[v] !== true);
            const n = venues.length;
            const want = Int32Array.from(venues);
            sortByKey(want, n, keys, better, new Int32Array(count));
            const a = Int32Array.from(venues);
            const mark = new Int32Array(count + 5).fill(-1);
            // Stale marks beyond this walk's venues must not matter.
            mark.fill(0, count);
            memo.sort(sides[side]!, a, n, keys, better, new Int32Array(count), mark, count);
            expect([...a]).toEqual([...want]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
