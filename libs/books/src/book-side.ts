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

/**
 * One side of an order book as two parallel sorted Float64Arrays, stored worst level first so
 * that the best level is at the end: most feed updates touch the top of the book, and an insert
 * or removal there moves only the few entries above it (one native memmove per array), where
 * ccxt's best-first JS array splice moves nearly all of them.
 */
export class BookSide implements BookSideView {
  private prices: Float64Array;
  private amounts: Float64Array;
  count = 0;

  /** `dir` is +1 for asks (best = lowest price) and -1 for bids (best = highest price). */
  constructor(readonly dir: 1 | -1) {
    this.prices = new Float64Array(INITIAL_CAPACITY);
    this.amounts = new Float64Array(INITIAL_CAPACITY);
  }

  price(i: number): number {
    return this.prices[this.count - 1 - i]!;
  }

  amount(i: number): number {
    return this.amounts[this.count - 1 - i]!;
  }

  /** Storage index of the first entry not worse than `price` (where it sits or would go). */
  private search(price: number): number {
    const prices = this.prices;
    const dir = this.dir;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // Storage ascends in "goodness": a worse price than `price` sorts before it.
      if ((prices[mid]! - price) * dir > 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Set a level to `amount`; 0 removes it. */
  set(price: number, amount: number): void {
    const i = this.search(price);
    const n = this.count;
    if (i < n && this.prices[i] === price) {
      if (amount > 0) {
        this.amounts[i] = amount;
      } else {
        if (i < n - 1) {
          this.prices.copyWithin(i, i + 1, n);
          this.amounts.copyWithin(i, i + 1, n);
        }
        this.count = n - 1;
      }
      return;
    }
    if (amount <= 0) return;
    if (n === this.prices.length) this.grow(n * 2);
    if (i < n) {
      this.prices.copyWithin(i + 1, i, n);
      this.amounts.copyWithin(i + 1, i, n);
    }
    this.prices[i] = price;
    this.amounts[i] = amount;
    this.count = n + 1;
  }

  /** Replace every level with `levels`, sorted best first (a snapshot); zero amounts are skipped. */
  replaceSorted(levels: readonly Level[]): void {
    let n = 0;
    for (const level of levels) if (level[1] > 0) n++;
    if (n > this.prices.length) this.grow(n);
    let j = n;
    for (const [price, amount] of levels) {
      if (amount <= 0) continue;
      j--;
      this.prices[j] = price;
      this.amounts[j] = amount;
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
    const c = Math.max(capacity, INITIAL_CAPACITY);
    const p = new Float64Array(c);
    const a = new Float64Array(c);
    p.set(this.prices.subarray(0, this.count));
    a.set(this.amounts.subarray(0, this.count));
    this.prices = p;
    this.amounts = a;
  }
}
