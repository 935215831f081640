import type { TurnBudget } from '@app/event-log';

/** Bytes per index entry: 8 of the key's hash, 8 of the offset, both big-endian so bytes sort as numbers. */
export const ENTRY = 16;
const WORDS = ENTRY / 4;
/** Entries between two looks at the turn budget (tens of microseconds, before the code is optimised too). */
const CHECK = 256;

/**
 * Sorting and merging of 16-byte index entries in slices that give the event loop back every
 * TURN_MS: the requestId indexer runs on the API's event loop, and one synchronous sort of 2^18
 * entries or merge of two runs of millions held it for hundreds of milliseconds. Entries compare
 * as big-endian words (hash high, hash low, offset high, offset low) and move as four 32-bit words
 * through Uint32Array views of the same bytes (byte order is kept whatever the machine's).
 */

/** -1, 0 or 1 as entry `i` of `a` sorts before, with or after entry `j` of `b` (entry indexes). */
export function compareEntries(a: Buffer, i: number, b: Buffer, j: number): number {
  let p = i * ENTRY;
  let q = j * ENTRY;
  for (let w = 0; w < WORDS; w++, p += 4, q += 4) {
    const x = a.readUInt32BE(p);
    const y = b.readUInt32BE(q);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** A Buffer of `entries` entries whose bytes can be viewed as 32-bit words. */
export function entryBuffer(entries: number): Buffer {
  // Buffer.alloc never hands out a slice of the shared pool: its offset is 0.
  return Buffer.alloc(entries * ENTRY);
}

function words(b: Buffer): Uint32Array {
  if (b.byteOffset % 4 !== 0) throw new RangeError('index entries must be 4-byte aligned');
  return new Uint32Array(b.buffer, b.byteOffset, b.length >>> 2);
}

/** Copy entry `from` of `s` to entry `to` of `d` (word views). */
function move(s: Uint32Array, from: number, d: Uint32Array, to: number): void {
  const f = from * WORDS;
  const t = to * WORDS;
  d[t] = s[f]!;
  d[t + 1] = s[f + 1]!;
  d[t + 2] = s[f + 2]!;
  d[t + 3] = s[f + 3]!;
}

/**
 * Sort `body` (whole entries, from entryBuffer) by bytes: a bottom-up merge sort whose passes
 * give the loop back whenever the turn budget is spent. Returns the sorted buffer (`body` or a
 * buffer of the same size).
 */
export async function sortEntries(body: Buffer, budget: TurnBudget): Promise<Buffer> {
  const n = body.length / ENTRY;
  let src = body;
  let dst = entryBuffer(n);
  let since = 0;
  for (let width = 1; width < n; width *= 2) {
    const s = words(src);
    const d = words(dst);
    let k = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      while (i < mid || j < hi) {
        if (j >= hi || (i < mid && compareEntries(src, i, src, j) <= 0)) move(s, i++, d, k++);
        else move(s, j++, d, k++);
        if (++since === CHECK) {
          since = 0;
          if (budget.due()) await budget.next();
        }
      }
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/** Sorted entries read a page at a time (a run's body on disk, its pages in a shared topic). */
export interface EntrySource {
  /** The next page of entries, or null at the end. */
  next(): Promise<Buffer | null>;
}

/** A source's current page and where its reader is in it. */
class Reading {
  page: Buffer | null = null;
  w: Uint32Array = new Uint32Array(0);
  at = 0;

  constructor(private readonly source: EntrySource) {}

  /** Load the next non-empty page (copied when its bytes cannot be viewed as words); false at the end. */
  async advance(): Promise<boolean> {
    this.at = 0;
    for (;;) {
      const page = await this.source.next();
      if (page === null) {
        this.page = null;
        return false;
      }
      if (page.length === 0) continue;
      this.page =
        page.byteOffset % 4 === 0
          ? page
          : Buffer.from(page.buffer.slice(page.byteOffset, page.byteOffset + page.length));
      this.w = words(this.page);
      return true;
    }
  }

  get entries(): number {
    return this.page === null ? 0 : this.page.length / ENTRY;
  }
}

/**
 * Merge two sorted sources into pages of `pageEntries` handed to `write` (the page buffer is
 * reused once `write` resolves), ties from `a` first: memory stays three pages whatever the runs'
 * sizes. Returns the number of entries.
 */
export async function mergeSources(
  a: EntrySource,
  b: EntrySource,
  pageEntries: number,
  write: (page: Buffer) => Promise<void>,
  budget: TurnBudget,
): Promise<number> {
  const x = new Reading(a);
  const y = new Reading(b);
  let hasX = await x.advance();
  let hasY = await y.advance();
  const out = entryBuffer(pageEntries);
  const ow = words(out);
  let k = 0;
  let count = 0;
  let since = 0;
  while (hasX || hasY) {
    if (hasX && (!hasY || compareEntries(x.page!, x.at, y.page!, y.at) <= 0)) {
      move(x.w, x.at++, ow, k++);
      if (x.at === x.entries) hasX = await x.advance();
    } else {
      move(y.w, y.at++, ow, k++);
      if (y.at === y.entries) hasY = await y.advance();
    }
    count++;
    if (k === pageEntries) {
      await write(out);
      k = 0;
    }
    if (++since === CHECK) {
      since = 0;
      if (budget.due()) await budget.next();
    }
  }
  if (k > 0) await write(out.subarray(0, k * ENTRY));
  return count;
}
