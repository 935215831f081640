import type { Level } from '@app/events';

/** Read-only view of one side of a book; level 0 is the best. */
export interface BookSideView {
  readonly count: number;
  /** Price of level `i` (0 = best), for 0 <= i < count. */
  price(i: number): number;
  /** Amount of level `i` (0 = best), for 0 <= i < count. */
  amount(i: number): number;
}

const INITIAL_CAPACITY = 64;

/** Below this many numbers a plain loop beats copyWithin's fixed call cost. */
const SMALL_MOVE = 32;

/** Shift entries [from, to) of `data` by `by` places (whole pairs). */
function shift(data: Float64Array, from: number, to: number, by: 2 | -2): void {
  if (to - from > SMALL_MOVE) {
    data.copyWithin(from + by, from, to);
  } else if (by > 0) {
    for (let k = to - 1; k >= from; k--) data[k + by] = data[k]!;
  } else {
    for (let k = from; k < to; k++) data[k + by] = data[k]!;
  }
}

/**
 * One side of an order book as one Float64Array of interleaved [price, amount] pairs, sorted and
 * stored worst level first so that the best level is at the end: most feed updates touch the top
 * of the book, and an insert or removal there moves only the few pairs above it, in one native
 * memmove (or a short loop), where ccxt's best-first JS array splice moves nearly all of them.
 */
export class BookSide implements BookSideView {
  /** data[2k] = price, data[2k+1] = amount of the k-th pair counted from the worst. */
  private data: Float64Array;
  count = 0;

  /** `dir` is +1 for asks (best = lowest price) and -1 for bids (best = highest price). */
  constructor(readonly dir: 1 | -1) {
    this.data = new Float64Array(2 * INITIAL_CAPACITY);
  }

  price(i: number): number {
    return this.data[2 * (this.count - 1 - i)]!;
  }

  amount(i: number): number {
    return this.data[2 * (this.count - 1 - i) + 1]!;
  }

  /** Pair index of the first entry not worse than `price` (where it sits or would go). */
  private search(price: number): number {
    const data = this.data;
    const dir = this.dir;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Storage ascends in "goodness": a worse price than `price` sorts before it.
      if ((data[2 * mid]! - price) * dir > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Set a level to `amount`; 0 removes it. */
  set(price: number, amount: number): void {
    const i = this.search(price);
    const n = this.count;
    if (i < n && this.data[2 * i] === price) {
      if (amount > 0) this.data[2 * i + 1] = amount;
      else {
        if (i < n - 1) shift(this.data, 2 * (i + 1), 2 * n, -2);
        this.count = n - 1;
      }
      return;
    }
    if (amount <= 0) return;
    if (2 * n === this.data.length) this.grow(n * 2);
    const data = this.data;
    if (i < n) shift(data, 2 * i, 2 * n, 2);
    data[2 * i] = price;
    data[2 * i + 1] = amount;
    this.count = n + 1;
  }

  /** Replace every level with `levels`, sorted best first (a snapshot); zero amounts are skipped. */
  replaceSorted(levels: readonly Level[]): void {
    let n = 0;
    for (let k = 0; k < levels.length; k++) if (levels[k]![1] > 0) n++;
    if (2 * n > this.data.length) this.grow(n);
    const data = this.data;
    let j = n;
    for (let k = 0; k < levels.length; k++) {
      const level = levels[k]!;
      if (level[1] <= 0) continue;
      j--;
      data[2 * j] = level[0];
      data[2 * j + 1] = level[1];
    }
    this.count = n;
  }

  clear(): void {
    this.count = 0;
  }

  /** Levels best first as [price, amount] pairs, at most `limit`. */
  toLevels(limit = Infinity): Level[] {
    const n = Math.min(this.count, limit);
    const out: Level[] = new Array<Level>(n);
    for (let i = 0; i < n; i++) out[i] = [this.price(i), this.amount(i)];
    return out;
  }

  private grow(capacity: number): void {
    const d = new Float64Array(2 * Math.max(capacity, INITIAL_CAPACITY));
    d.set(this.data.subarray(0, 2 * this.count));
    this.data = d;
  }
}
