import type { Level } from '@app/events';

/** Read-only view of one side of a book: levels best first in parallel typed arrays. */
export interface BookSideView {
  /** Number of live levels; entries at and beyond `count` are garbage. */
  readonly count: number;
  readonly prices: Float64Array;
  readonly amounts: Float64Array;
}

const INITIAL_CAPACITY = 64;

/**
 * One side of an order book as two parallel sorted Float64Arrays (best level first).
 * Updates of an existing level are a binary search and a store; inserts and removals are one
 * native memmove (`copyWithin`) per array, far cheaper than ccxt's JS array splice.
 */
export class BookSide implements BookSideView {
  prices: Float64Array;
  amounts: Float64Array;
  count = 0;

  /** `dir` is +1 for asks (ascending prices) and -1 for bids (descending prices). */
  constructor(readonly dir: 1 | -1) {
    this.prices = new Float64Array(INITIAL_CAPACITY);
    this.amounts = new Float64Array(INITIAL_CAPACITY);
  }

  /** Index of the first level not better than `price` (where `price` sits or would be inserted). */
  private search(price: number): number {
    const prices = this.prices;
    const dir = this.dir;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((prices[mid]! - price) * dir < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Set a level to `amount`; 0 removes it. */
  set(price: number, amount: number): void {
    const i = this.search(price);
    const exists = i < this.count && this.prices[i] === price;
    if (exists) {
      if (amount > 0) {
        this.amounts[i] = amount;
      } else {
        this.prices.copyWithin(i, i + 1, this.count);
        this.amounts.copyWithin(i, i + 1, this.count);
        this.count--;
      }
      return;
    }
    if (amount <= 0) return;
    if (this.count === this.prices.length) this.grow(this.count * 2);
    if (i < this.count) {
      this.prices.copyWithin(i + 1, i, this.count);
      this.amounts.copyWithin(i + 1, i, this.count);
    }
    this.prices[i] = price;
    this.amounts[i] = amount;
    this.count++;
  }

  /** Replace every level with `levels`, which must already be sorted best first (a snapshot). */
  replaceSorted(levels: readonly Level[]): void {
    if (levels.length > this.prices.length) this.grow(levels.length);
    let n = 0;
    for (const [price, amount] of levels) {
      if (amount <= 0) continue;
      this.prices[n] = price;
      this.amounts[n] = amount;
      n++;
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
    for (let i = 0; i < n; i++) out[i] = [this.prices[i]!, this.amounts[i]!];
    return out;
  }

  private grow(capacity: number): void {
    const c = Math.max(capacity, INITIAL_CAPACITY);
    const p = new Float64Array(c);
    const a = new Float64Array(c);
    p.set(this.prices.subarray(0, this.count));
    a.set(this.amounts.subarray(0, this.count));
    this.prices = p;
    this.amounts = a;
  }
}
