import { BookCache, bookHash } from '@app/books';
import type { EventRecord } from '@app/events';

/** Every book's hash (`exchangeId|symbol` -> bookHash), sorted by key. */
export function bookHashes(cache: BookCache): Record<string, string> {
  const out: Record<string, string> = {};
  for (const book of cache.allBooks()) out[`${book.exchangeId}|${book.symbol}`] = bookHash(book);
  return out;
}

/** The independent fold the tests compare a feed against: records applied in order to a fresh cache. */
export function foldRecords(records: Iterable<EventRecord>): BookCache {
  const cache = new BookCache();
  for (const r of records) cache.apply(r);
  return cache;
}

export { waitFor } from '@test/support';

/** A logger that keeps what it was told (the feed's warnings are part of its behaviour). */
export function memoryLogger(): {
  log(m: string): void;
  warn(m: string): void;
  error(m: string): void;
  readonly lines: string[];
} {
  const lines: string[] = [];
  return {
    lines,
    log: (m: string) => void lines.push(`log ${m}`),
    warn: (m: string) => void lines.push(`warn ${m}`),
    error: (m: string) => void lines.push(`error ${m}`),
  };
}

/** Book records per venue, to check each was applied exactly once (VenueInfo.updateCount). */
export function bookCounts(records: readonly EventRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) if (r.type === 'book') out[r.exchangeId] = (out[r.exchangeId] ?? 0) + 1;
  return out;
}

/** updateCount per venue as the cache saw it. */
export function cacheCounts(cache: BookCache): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of cache.venueStates()) if (v.updateCount > 0) out[v.exchangeId] = v.updateCount;
  return out;
}
