import type { Level } from '@app/events';
import { diffSide, mergeDiff, type CcxtSide, type LevelBuffer } from './book-diff';

/** The price bounds of every level changed on a side since `prev` was last synced to it. */
export interface PriceRange {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The band of prices changed on one book side since it was last published, filled by whoever
 * sees the side's mutations (side-tracker.ts taps ccxt's). `whole` means the change cannot be
 * described by a band (a reset, a price that is not a number, or history from before tracking).
 */
export class TouchedBand implements PriceRange {
  whole = true;
  lo = Infinity;
  hi = -Infinity;

  note(price: unknown): void {
    if (typeof price !== 'number' || Number.isNaN(price)) {
      this.whole = true;
      return;
    }
    if (price < this.lo) this.lo = price;
    if (price > this.hi) this.hi = price;
  }

  clear(): void {
    this.whole = false;
    this.lo = Infinity;
    this.hi = -Infinity;
  }
}

/**
 * Bring `prev` (the last published top levels) to the first `n` rows of `next` and return the
 * delta, like `diffSide` followed by `fill`. With `touched` (the price bounds of every level
 * changed since `prev` was synced; empty when lo > hi) only that band and the window's tail are
 * read: levels better than the band are the same on both sides, and the levels worse than it are
 * one common list, cut at `prev.count` before and at `n` now, so only the counts are compared.
 * Without it (or if the window shrank into the unchanged top) the whole window is diffed.
 */
export function syncSide(
  prev: LevelBuffer,
  next: CcxtSide,
  n: number,
  dir: 1 | -1,
  touched: PriceRange | null,
): Level[] {
  const c = prev.count;
  if (touched === null) return resync(prev, next, n, dir);
  let s = Math.min(c, n);
  let i = s;
  let j = s;
  if (touched.lo <= touched.hi) {
    const first = dir === 1 ? touched.lo : touched.hi;
    const last = dir === 1 ? touched.hi : touched.lo;
    s = firstNotBetter(prev, first, dir);
    // The window shrank into the unchanged top (a deeper trim): diff it all.
    if (s > n) return resync(prev, next, n, dir);
    i = firstWorse(prev, last, dir, s);
    // next[0, s) equals prev[0, s); find where next leaves the changed band.
    j = s;
    while (j < n && (next[j]![0]! - last) * dir <= 0) j++;
  }
  const out: Level[] = [];
  mergeDiff(out, prev, s, i, next, s, j, dir);
  // prev[i, c) and next[j, n) are prefixes of one list: only the longer one's extra levels differ.
  const k = Math.min(c - i, n - j);
  for (let t = i + k; t < c; t++) out.push([prev.prices[t]!, 0]);
  // Rewrite prev as next[0, n): shift the shared tail, then copy the band and the entered levels.
  prev.reserve(n);
  const p = prev.prices;
  const q = prev.amounts;
  if (i !== j && k > 0) {
    p.copyWithin(j, i, i + k);
    q.copyWithin(j, i, i + k);
  }
  for (let t = s; t < j; t++) {
    const row = next[t]!;
    p[t] = row[0]!;
    q[t] = row[1]!;
  }
  for (let t = j + k; t < n; t++) {
    const row = next[t]!;
    p[t] = row[0]!;
    q[t] = row[1]!;
    out.push([row[0]!, row[1]!]);
  }
  prev.count = n;
  return out;
}

function resync(prev: LevelBuffer, next: CcxtSide, n: number, dir: 1 | -1): Level[] {
  const out = diffSide(prev, next, n, dir);
  prev.fill(next, n);
  return out;
}

/** First index whose price is not better than `price` (binary search). */
function firstNotBetter(buf: LevelBuffer, price: number, dir: 1 | -1): number {
  let lo = 0;
  let hi = buf.count;
  const prices = buf.prices;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((prices[mid]! - price) * dir < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, count) whose price is worse than `price` (binary search). */
function firstWorse(buf: LevelBuffer, price: number, dir: 1 | -1, from: number): number {
  let lo = from;
  let hi = buf.count;
  const prices = buf.prices;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((prices[mid]! - price) * dir <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
