import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstBelow } from './first-below';

describe('FirstBelow', () => {
  it('finds the first place at or after `from` holding a value below the bound, as a scan does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true }), fc.constant(Infinity)), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.tuple(fc.nat(45), fc.double({ noNaN: true }), fc.nat(45), fc.double({ noNaN: true }))),
        (values, ops) => {
          const tree = new FirstBelow(values.length);
          const row = [...values];
          // Filled at once through an order (reversed), as a walk fills it from its ranking.
          const order = Int32Array.from(row.keys()).reverse();
          tree.fillFrom(row.length, Float64Array.from([...row].reverse()), order);
          for (const [at, value, from, bound] of ops) {
            if (at < row.length) {
              row[at] = value;
              tree.set(at, value);
            }
            let want = -1;
            for (let i = from; i < row.length; i++)
              if (row[i]! < bound) {
                want = i;
                break;
              }
            expect(tree.first(from, bound)).toBe(want);
          }
        },
      ),
    );
  });
});
