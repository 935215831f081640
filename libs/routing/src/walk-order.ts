// The merged walks' ranking order, sorted without a comparator function.

/**
 * Sort venue indices `a[0..n)` into walk order: the better key first (`better` -1 lower, 1
 * higher), ties by venue index, as VenueHeap orders them. A merge sort with the comparison inline:
 * a comparator function called from a sort costs more than the walk it serves.
 */
export function sortByKey(
  a: Int32Array,
  n: number,
  keys: Float64Array,
  better: number,
  tmp: Int32Array,
): void {
  let src = a;
  let dst = tmp;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        if (j >= hi) dst[k] = src[i++]!;
        else if (i >= mid) dst[k] = src[j++]!;
        else {
          const x = src[i]!;
          const y = src[j]!;
          const d = (keys[y]! - keys[x]!) * better;
          if (d > 0 || (d === 0 && y < x)) {
            dst[k] = y;
            j++;
          } else {
            dst[k] = x;
            i++;
          }
        }
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src.subarray(0, n));
}
