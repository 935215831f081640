// A binary heap of venue indices keyed by a key array it shares with its walk: the better key
// first (`better` -1 lower, 1 higher), ties by the lower index, which is the walks' order of
// venues at one ranking price (exchangeId order). Each venue's place is kept, so a venue whose key
// moved, or that leaves, is fixed in O(log n).

/** A heap of venue indices 0..capacity-1. */
export class VenueHeap {
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private keys: Float64Array;
  private better = 1;
  size = 0;

  constructor(capacity: number) {
    this.heap = new Int32Array(capacity);
    this.pos = new Int32Array(capacity).fill(-1);
    this.keys = new Float64Array(0);
  }

  /** Empty, for venues 0..n-1 keyed by `keys`. */
  clear(n: number, keys: Float64Array, better: number): void {
    this.pos.fill(-1, 0, n);
    this.size = 0;
    this.keys = keys;
    this.better = better;
  }

  /** The first venue, -1 when empty. */
  top(): number {
    return this.size > 0 ? this.heap[0]! : -1;
  }

  /** The venue at place `i` of the heap (0 <= i < size), in no useful order. */
  at(i: number): number {
    return this.heap[i]!;
  }

  has(v: number): boolean {
    return this.pos[v]! >= 0;
  }

  /** Put venue `v` (keyed by its current key) where it belongs, whether in the heap or not yet. */
  place(v: number): void {
    let i = this.pos[v]!;
    if (i < 0) {
      i = this.size++;
      this.heap[i] = v;
      this.pos[v] = i;
    }
    this.down(this.up(i));
  }

  remove(v: number): void {
    const i = this.pos[v]!;
    const last = this.heap[--this.size]!;
    this.pos[v] = -1;
    if (i === this.size) return;
    this.heap[i] = last;
    this.pos[last] = i;
    this.down(this.up(i));
  }

  /**
   * Take out the venues `list[from..to)`, all in the heap: one by one when they are few, else in
   * one pass that keeps the others and orders them again (O(size), where taking most of a heap out
   * one at a time costs O(size log size)). The order the venues come out in is the same either way.
   */
  removeMany(list: Int32Array, from: number, to: number): void {
    if ((to - from) * 4 <= this.size) {
      for (let i = from; i < to; i++) this.remove(list[i]!);
      return;
    }
    const { heap, pos } = this;
    for (let i = from; i < to; i++) pos[list[i]!] = -2;
    let m = 0;
    for (let i = 0; i < this.size; i++) {
      const v = heap[i]!;
      if (pos[v] === -2) {
        pos[v] = -1;
        continue;
      }
      heap[m] = v;
      pos[v] = m++;
    }
    this.size = m;
    for (let i = (m >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** Take out the first venue; -1 when empty. */
  pop(): number {
    const v = this.top();
    if (v >= 0) this.remove(v);
    return v;
  }

  /** Whether venue `a` comes before venue `b`. */
  before(a: number, b: number): boolean {
    const d = (this.keys[a]! - this.keys[b]!) * this.better;
    return d > 0 || (d === 0 && a < b);
  }

  // up and down compare as `before` does, with the moving venue's key read once.
  private up(i: number): number {
    const { heap, pos, keys, better } = this;
    const v = heap[i]!;
    const kv = keys[v]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p]!;
      const d = (kv - keys[u]!) * better;
      if (!(d > 0 || (d === 0 && v < u))) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
    return i;
  }

  private down(i: number): void {
    const { heap, pos, size, keys, better } = this;
    const v = heap[i]!;
    const kv = keys[v]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let c = l;
      let u = heap[l]!;
      let ku = keys[u]!;
      if (r < size) {
        const w = heap[r]!;
        const kw = keys[w]!;
        const e = (kw - ku) * better;
        if (e > 0 || (e === 0 && w < u)) {
          c = r;
          u = w;
          ku = kw;
        }
      }
      const d = (ku - kv) * better;
      if (!(d > 0 || (d === 0 && u < v))) break;
      heap[i] = u;
      pos[u] = i;
      i = c;
    }
    heap[i] = v;
    pos[v] = i;
  }
}
