import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueHeap } from './venue-heap';

// The merged walks take venues from this heap in ranking order: the better key first, ties by the
// lower venue index. A walk that sets many venues aside at once takes them out together
// (removeMany); what is left must come out in the same order as if they had left one by one.

/** Every venue left, in the order the heap gives them up. */
function drain(heap: VenueHeap): number[] {
  const out: number[] = [];
  for (let v = heap.pop(); v >= 0; v = heap.pop()) out.push(v);
  return out;
}

describe('VenueHeap.removeMany', () => {
  it('leaves the other venues in ranking order, whether it takes out a few or most', () => {
    let few = 0;
    let most = 0;
    fc.assert(
      fc.property(
        // Few distinct keys, so that ties are common.
        fc.array(
          fc.integer({ min: 0, max: 8 }).map((k) => k * 0.5),
          { minLength: 1, maxLength: 70 },
        ),
        fc.constantFrom(-1, 1),
        fc.array(fc.boolean(), { maxLength: 70 }),
        fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 10 }),
        (raw, better, out, moved) => {
          const n = raw.length;
          const keys = Float64Array.from(raw);
          const heap = new VenueHeap(n);
          heap.clear(n, keys, better);
          for (let v = 0; v < n; v++) heap.place(v);
          // A few venues' keys move first (as a walk's legs do), so the heap is not as first built.
          moved.forEach((k, i) => {
            const v = (i * 7) % n;
            keys[v] = k * 0.5;
            heap.place(v);
          });
          const gone = Int32Array.from(Array.from({ length: n }, (_, v) => v).filter((v) => out[v] === true));
          if (gone.length * 4 <= n) few++;
          else most++;
          heap.removeMany(gone, 0, gone.length);
          expect(heap.size).toBe(n - gone.length);
          for (const v of gone) expect(heap.has(v)).toBe(false);
          let left = Array.from({ length: n }, (_, v) => v).filter((v) => out[v] !== true);
          // The walk goes on with what is left: a venue's key moves, another leaves by itself.
          if (left.length > 1) {
            const v = left[left.length >> 1]!;
            keys[v] = keys[v]! + 0.75;
            heap.place(v);
            heap.remove(left[0]!);
            left = left.slice(1);
          }
          const want = left.sort((a, b) => (keys[b]! - keys[a]!) * better || a - b);
          expect(drain(heap)).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
    // Both ways of taking venues out were taken.
    expect(few).toBeGreaterThan(20);
    expect(most).toBeGreaterThan(20);
  });
});
