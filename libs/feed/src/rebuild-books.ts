import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import type { JournalPositions } from '@app/journal';
import { partitionFor, type EventLog } from '@app/log';
import { decodeEntry, foldEntries, readRange } from './fold';
import { refuseBeforeHorizon } from './horizon';

export interface RebuildStats {
  /** Entries read from the books topic (all partitions). */
  readonly bookEntriesRead: number;
  /** Book records folded (entries of the needed books). */
  readonly bookRecordsFolded: number;
  readonly venueRecordsFolded: number;
  /** Books rebuilt. */
  readonly books: number;
}

/** Backward reads start small (the snapshots needed are usually recent) and double up to MAX_CHUNK. */
const FIRST_CHUNK = 256;
const MAX_CHUNK = 8192;
/** Entries read backwards in one partition before the rebuild index is asked for a lower bound. */
const INDEX_AFTER = 50_000;

/**
 * A BookCache holding exactly what `solve` may read for `symbols` at `positions`: every market and
 * venue record below the venues positions, and for each book of those symbols its latest snapshot
 * below the books position plus the deltas after it. The books topic is read backwards from the
 * recorded position, and a partition stops as soon as each of its needed books has shown a
 * snapshot, so the work depends on the snapshot interval, not on the log's length. The log's
 * rebuild index bounds the scan when a book has no snapshot at all.
 */
export async function rebuildBooks(
  log: EventLog,
  positions: JournalPositions,
  symbols: ReadonlySet<string>,
): Promise<{ cache: BookCache; stats: RebuildStats }> {
  await refuseBeforeHorizon(log, positions);
  const cache = new BookCache();
  const venueRecordsFolded = await foldVenues(log, positions, cache);
  const n = await log.partitions('books');
  if (positions.books.length !== n)
    throw new Error(`the record's books position has ${positions.books.length} partitions, the log has ${n}`);
  // The log's rebuild index is only consulted when a partition's backward scan runs long (a book
  // without a recent snapshot): reading the index costs time proportional to the log's history.
  let bounds: number[] | null = null;
  const wanted: Set<string>[] = Array.from({ length: n }, () => new Set());
  for (const symbol of symbols)
    for (const venue of cache.venuesListing(symbol)) {
      const key = `${venue}|${symbol}`;
      wanted[partitionFor(key, n)]!.add(key);
    }
  let read = 0;
  let folded = 0;
  let books = 0;
  for (let p = 0; p < n; p++) {
    const upTo = positions.books[p]!;
    let bound = 0;
    let budget = INDEX_AFTER;
    const pending = new Set(wanted[p]);
    /** Keys whose latest snapshot below upTo has been read: older entries are not needed. */
    const complete = new Set<string>();
    const seen = new Set<string>();
    const chunks: EventRecord[][] = [];
    for (
      let to = upTo, chunk = FIRST_CHUNK;
      to > bound && pending.size > 0;
      chunk = Math.min(MAX_CHUNK, chunk * 2)
    ) {
      const from = Math.max(bound, to - chunk);
      const entries = await log.read('books', p, from, to - from);
      read += entries.length;
      budget -= entries.length;
      if (budget <= 0 && bound === 0) {
        bounds ??= await log.rebuildStarts('books', positions.books);
        // An index answer past upTo (a compacted Kafka index) is no bound: keep scanning to 0.
        bound = bounds[p]! <= upTo ? bounds[p]! : 0;
      }
      const got: EventRecord[] = [];
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i]!;
        // Past `to` means the read skipped a range gone to retention: those entries were read already.
        if (e.offset >= to || complete.has(e.key) || !symbols.has(e.key.slice(e.key.indexOf('|') + 1)))
          continue;
        const decoded = decodeEntry(e);
        // The API skipped malformed entries too (LogBookFeed.apply); skipping keeps the same state.
        if (!decoded.ok || decoded.record.type !== 'book') continue;
        got.push(decoded.record);
        seen.add(e.key);
        if (decoded.record.snapshot) {
          complete.add(e.key);
          pending.delete(e.key);
        } else {
          // Also covers a book whose venue sent no market record: wait for its snapshot too.
          pending.add(e.key);
        }
      }
      chunks.push(got);
      to = from;
    }
    books += seen.size;
    for (let c = chunks.length - 1; c >= 0; c--) {
      const got = chunks[c]!;
      for (let i = got.length - 1; i >= 0; i--) {
        cache.apply(got[i]!);
        folded++;
      }
    }
  }
  return { cache, stats: { bookEntriesRead: read, bookRecordsFolded: folded, venueRecordsFolded, books } };
}

/** Fold every market and venue record below the recorded venues positions (a small topic). */
async function foldVenues(log: EventLog, positions: JournalPositions, cache: BookCache): Promise<number> {
  const n = await log.partitions('venues');
  if (positions.venues.length !== n)
    throw new Error(
      `the record's venues position has ${positions.venues.length} partitions, the log has ${n}`,
    );
  let folded = 0;
  for (let p = 0; p < n; p++)
    for await (const entries of readRange(log, 'venues', p, 0, positions.venues[p]!))
      folded += foldEntries(entries, cache, () => undefined);
  return folded;
}
