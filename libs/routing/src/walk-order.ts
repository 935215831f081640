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

/** Orders kept, one per recent market (book side) a walk started from. */
const KEPT_ORDERS = 16;

/**
 * The walk orders of recent merged walks, each under the book side of its first ranked venue and
 * its direction. A hop is walked again and again over the same books, whose venues' best prices
 * seldom change places between two walks; the merge sort's comparisons, each a coin toss for the
 * branch predictor, are most of a walk's set-up. Started from the order last found, an insertion
 * sort checks it in one predictable pass and moves the few venues that changed place.
 */
export class OrderMemo {
  private readonly sides: (object | null)[] = new Array<object | null>(KEPT_ORDERS).fill(null);
  private readonly betters = new Int8Array(KEPT_ORDERS);
  private readonly lengths = new Int32Array(KEPT_ORDERS);
  private readonly counts = new Int32Array(KEPT_ORDERS);
  private readonly orders: Int32Array[] = [];
  private slot = 0;

  /**
   * Sort venue indices `a[0..n)` (in venue order) into walk order as `sortByKey` does, starting
   * from the order kept under `side` and `better` when there is one; then keep the order found.
   * `mark[0..count)` (one per venue of the walk) must hold -1 for the venues of `a` and is left at
   * 1 for them. Every key must be finite: then the order (better key, then lower
   * index) is total and strict, so any start gives the same sorted row.
   */
  sort(
    side: object,
    a: Int32Array,
    n: number,
    keys: Float64Array,
    better: number,
    tmp: Int32Array,
    mark: Int32Array,
    count: number,
  ): void {
    let at = -1;
    for (let i = 0; i < KEPT_ORDERS; i++)
      if (this.sides[i] === side && this.betters[i] === better && this.counts[i] === count) {
        at = i;
        break;
      }
    if (at < 0 || !seeded(a, n, this.orders[at]!, this.lengths[at]!, tmp, mark, count, keys, better))
      sortByKey(a, n, keys, better, tmp);
    if (at < 0) {
      at = this.slot;
      this.slot = (at + 1) % KEPT_ORDERS;
      this.sides[at] = side;
      this.betters[at] = better;
      this.counts[at] = count;
    }
    let kept = this.orders[at];
    if (kept === undefined || kept.length < n) this.orders[at] = kept = new Int32Array(Math.max(n, 64));
    // Copied by hand: a subarray to copy from is an object made per walk.
    for (let i = 0; i < n; i++) kept[i] = a[i]!;
    this.lengths[at] = n;
  }
}

/**
 * Put `a[0..n)` in the order of `kept` (its venues that are in `a`, then the others of `a` in
 * venue order) and insertion-sort it; false (with `a` a permutation of itself, for the merge
 * sort) when the order moved so much that the insertion sort would cost more than a merge sort.
 */
function seeded(
  a: Int32Array,
  n: number,
  kept: Int32Array,
  keptLength: number,
  tmp: Int32Array,
  mark: Int32Array,
  count: number,
  keys: Float64Array,
  better: number,
): boolean {
  for (let i = 0; i < n; i++) {
    const v = a[i]!;
    mark[v] = 0;
    tmp[i] = v;
  }
  let j = 0;
  for (let i = 0; i < keptLength; i++) {
    const v = kept[i]!;
    if (v < count && mark[v] === 0) {
      mark[v] = 1;
      a[j++] = v;
    }
  }
  for (let i = 0; i < n; i++) {
    const v = tmp[i]!;
    if (mark[v] === 0) {
      mark[v] = 1;
      a[j++] = v;
    }
  }
  // A venue moved back by more than a few places in all means the books moved: merge sort.
  let budget = 2 * n;
  for (let i = 1; i < n; i++) {
    const x = a[i]!;
    const kx = keys[x]!;
    let k = i - 1;
    for (; k >= 0; k--) {
      const y = a[k]!;
      const d = (kx - keys[y]!) * better;
      if (!(d > 0 || (d === 0 && x < y))) break;
      a[k + 1] = y;
    }
    a[k + 1] = x;
    budget -= i - 1 - k;
    if (budget < 0) return false;
  }
  return true;
}

/**
 * Sort venue indices `a[0..n)` ascending (venue order), moving `also`'s entries along with them:
 * an insertion sort, for the few legs that change between two drop checks.
 */
export function sortVenues(a: Int32Array, n: number, also: Uint8Array | null): void {
  for (let i = 1; i < n; i++) {
    const v = a[i]!;
    const x = also === null ? 0 : also[i]!;
    let j = i - 1;
    for (; j >= 0 && a[j]! > v; j--) {
      a[j + 1] = a[j]!;
      if (also !== null) also[j + 1] = also[j]!;
    }
    a[j + 1] = v;
    if (also !== null) also[j + 1] = x;
  }
}
