import type { Level } from '@app/events';

/** A ccxt order-book side: an array of [price, amount, ...] rows, best first; `depth` is its trim limit. */
export type CcxtSide = ArrayLike<ArrayLike<number>> & { readonly depth?: number };

/** Why a book cannot be published as good. */
export type BookFault = 'empty_bids' | 'empty_asks' | 'crossed' | 'invalid_level';

/**
 * How many of a side's levels are published: at most `depth`, and never more than the side's own
 * ccxt depth (ccxt trims to it only when the watch call returns, and a level past the venue's
 * channel depth is not maintained by the venue).
 */
export function publishedCount(side: CcxtSide, depth: number): number {
  return Math.min(side.length, depth, side.depth ?? Infinity);
}

/** Copy the best `depth` levels of a ccxt side into plain [price, amount] pairs (the book is mutable). */
export function topLevels(side: CcxtSide, depth: number): Level[] {
  const n = publishedCount(side, depth);
  const out: Level[] = new Array<Level>(n);
  for (let i = 0; i < n; i++) {
    const row = side[i]!;
    out[i] = [row[0]!, row[1]!];
  }
  return out;
}

/**
 * A book with an empty side, a best level that is not a price > 0 with an amount >= 0 (ccxt stores
 * what a malformed frame gives it, undefined included), or best bid >= best ask is never
 * published (docs/venues.md).
 */
export function bookFault(
  bids: CcxtSide,
  bidCount: number,
  asks: CcxtSide,
  askCount: number,
): BookFault | null {
  if (bidCount === 0) return 'empty_bids';
  if (askCount === 0) return 'empty_asks';
  const bid = bids[0]!;
  const ask = asks[0]!;
  if (!validLevel(bid) || !validLevel(ask)) return 'invalid_level';
  return bid[0]! >= ask[0]! ? 'crossed' : null;
}

/** A level whose price is a finite number > 0 and amount a finite number >= 0. */
export function validLevel(row: ArrayLike<number>): boolean {
  const p = row[0];
  const q = row[1];
  return typeof p === 'number' && p > 0 && p < Infinity && typeof q === 'number' && q >= 0 && q < Infinity;
}

/** The first `n` rows of a side are all valid levels (checked before a snapshot is published). */
export function validLevels(side: CcxtSide, n: number): boolean {
  for (let i = 0; i < n; i++) if (!validLevel(side[i]!)) return false;
  return true;
}

/** The last published levels of one side, in reusable typed arrays (no allocation per update). */
export class LevelBuffer {
  prices: Float64Array;
  amounts: Float64Array;
  count = 0;

  constructor(capacity: number) {
    this.prices = new Float64Array(capacity);
    this.amounts = new Float64Array(capacity);
  }

  /** Replace the contents with the first `n` rows of `side`. */
  fill(side: CcxtSide, n: number): void {
    if (n > this.prices.length) {
      this.prices = new Float64Array(n);
      this.amounts = new Float64Array(n);
    }
    for (let i = 0; i < n; i++) {
      const row = side[i]!;
      this.prices[i] = row[0]!;
      this.amounts[i] = row[1]!;
    }
    this.count = n;
  }

  /** Make room for `n` levels, keeping the current ones. */
  reserve(n: number): void {
    if (n <= this.prices.length) return;
    const size = Math.max(n, this.prices.length * 2);
    const prices = new Float64Array(size);
    const amounts = new Float64Array(size);
    prices.set(this.prices.subarray(0, this.count));
    amounts.set(this.amounts.subarray(0, this.count));
    this.prices = prices;
    this.amounts = amounts;
  }
}

/**
 * The delta that turns `prev` into the first `n` rows of `next` (both best first; `dir` -1 for
 * bids, 1 for asks): changed or new levels with their amount, vanished levels with amount 0. One
 * merge walk, O(prev + n); prices compare exactly since both come from the same parsed numbers.
 */
export function diffSide(prev: LevelBuffer, next: CcxtSide, n: number, dir: 1 | -1): Level[] {
  const out: Level[] = [];
  mergeDiff(out, prev, 0, prev.count, next, 0, n, dir);
  return out;
}

/** Append to `out` the delta from `prev` levels [i, iEnd) to `next` rows [j, jEnd) (one merge walk). */
export function mergeDiff(
  out: Level[],
  prev: LevelBuffer,
  i: number,
  iEnd: number,
  next: CcxtSide,
  j: number,
  jEnd: number,
  dir: 1 | -1,
): void {
  const { prices, amounts } = prev;
  while (i < iEnd && j < jEnd) {
    const p = prices[i]!;
    const row = next[j]!;
    const q = row[0]!;
    if (p === q) {
      if (amounts[i] !== row[1]) out.push([q, row[1]!]);
      i++;
      j++;
    } else if ((p - q) * dir < 0) {
      // prev's level sorts first and is absent from next: removed.
      out.push([p, 0]);
      i++;
    } else {
      out.push([q, row[1]!]);
      j++;
    }
  }
  for (; i < iEnd; i++) out.push([prices[i]!, 0]);
  for (; j < jEnd; j++) {
    const row = next[j]!;
    out.push([row[0]!, row[1]!]);
  }
}
