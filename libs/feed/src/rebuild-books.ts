import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import type { JournalPositions } from '@app/journal';
import { partitionFor, TurnBudget, type EventLog } from '@app/log';
import { decodeEntry, readRange } from './fold';
import { refuseBeforeHorizon } from './horizon';
import { TIME_BLOCK, type PartitionTimes, type TimeIndex } from './time-index';

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

export interface RebuildOptions {
  /**
   * The per-book cut (docs/replay.md "The books at an instant"): only records with
   * receivedAt <= asOf count, wherever they lie below `positions`. Omitted: every record below.
   */
  readonly asOf?: number;
  /**
   * Skip, with asOf, the blocks this time index says hold nothing at or before it. For a process
   * that keeps the index (the API); a one-off reader (`replay quote`) does better without: building
   * it reads the whole partition, the backward scan only back to the snapshots it needs.
   */
  readonly timeIndex?: TimeIndex;
}

/**
 * A BookCache holding exactly what `solve` may read for `symbols` at `positions` (and `asOf`):
 * every market and venue record below the venues positions, and for each book of those symbols
 * the fold, in log order, of its records below the books position (with receivedAt <= asOf when
 * given): its latest such snapshot plus the deltas after it, a skipped delta leaving the book out
 * of sync until its next snapshot, as events.md says. The books topic is read backwards from the
 * recorded position, and a partition stops as soon as each of its needed books has shown a
 * snapshot, so the work depends on the snapshot interval, not on the log's length. The log's
 * rebuild index bounds the scan when a book has no snapshot at all.
 */
export async function rebuildBooks(
  log: EventLog,
  positions: JournalPositions,
  symbols: ReadonlySet<string>,
  options: RebuildOptions = {},
): Promise<{ cache: BookCache; stats: RebuildStats }> {
  await refuseBeforeHorizon(log, positions);
  const asOf = options.asOf ?? Infinity;
  const timed = Number.isFinite(asOf);
  const cache = new BookCache();
  // The API rebuilds past books between requests: give way every few ms (parsing large snapshots).
  const turn = new TurnBudget();
  const venueRecordsFolded = await foldVenues(log, positions, cache, asOf, turn);
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
    const times =
      timed && options.timeIndex !== undefined ? await options.timeIndex.partition('books', p, upTo) : null;
    for (
      let to = upTo, chunk = FIRST_CHUNK;
      to > bound && pending.size > 0;
      chunk = Math.min(MAX_CHUNK, chunk * 2)
    ) {
      let from = Math.max(bound, to - chunk);
      if (times !== null) {
        // Skip the blocks that hold no record at or before asOf, then read only the run that may.
        to = Math.min(to, skipBack(times, to, asOf));
        if (to <= bound) break;
        from = Math.max(bound, to - chunk, runStart(times, to, asOf));
      }
      const entries = await log.read('books', p, from, to - from);
      read += entries.length;
      budget -= entries.length;
      // Without asOf the index's latest snapshot bounds the scan; with it, that snapshot may be after asOf.
      if (!timed && budget <= 0 && bound === 0) {
        bounds ??= await log.rebuildStarts('books', positions.books);
        // An index answer past upTo (a compacted Kafka index) is no bound: keep scanning to 0.
        bound = bounds[p]! <= upTo ? bounds[p]! : 0;
      }
      const got: EventRecord[] = [];
      for (let i = entries.length - 1; i >= 0; i--) {
        if (turn.due()) await turn.next();
        const e = entries[i]!;
        // Past `to` means the read skipped a range gone to retention: those entries were read already.
        if (e.offset >= to || complete.has(e.key) || !symbols.has(e.key.slice(e.key.indexOf('|') + 1)))
          continue;
        const decoded = decodeEntry(e);
        // The API skipped malformed entries too (LogBookFeed.apply); skipping keeps the same state.
        if (!decoded.ok || decoded.record.type !== 'book' || decoded.record.receivedAt > asOf) continue;
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
        if (turn.due()) await turn.next();
        cache.apply(got[i]!);
        folded++;
      }
    }
  }
  return { cache, stats: { bookEntriesRead: read, bookRecordsFolded: folded, venueRecordsFolded, books } };
}

/** The start of the block run ending at `to` whose blocks may hold a record at or before `t`. */
function runStart(times: PartitionTimes, to: number, t: number): number {
  let b = Math.floor((to - 1) / TIME_BLOCK);
  while (b > 0 && times.mayHold(b - 1, t)) b--;
  return b * TIME_BLOCK;
}

/** `to` lowered past the blocks below it that hold no record at or before `t`. */
function skipBack(times: PartitionTimes, to: number, t: number): number {
  let b = Math.floor((to - 1) / TIME_BLOCK);
  while (b >= 0 && !times.mayHold(b, t)) b--;
  return b < 0 ? 0 : Math.min(to, (b + 1) * TIME_BLOCK);
}

/**
 * Fold every market and venue record below the recorded venues positions (a small topic), those
 * with receivedAt <= asOf only.
 */
async function foldVenues(
  log: EventLog,
  positions: JournalPositions,
  cache: BookCache,
  asOf: number,
  turn: TurnBudget,
): Promise<number> {
  const n = await log.partitions('venues');
  if (positions.venues.length !== n)
    throw new Error(
      `the record's venues position has ${positions.venues.length} partitions, the log has ${n}`,
    );
  let folded = 0;
  for (let p = 0; p < n; p++)
    for await (const entries of readRange(log, 'venues', p, 0, positions.venues[p]!))
      for (const e of entries) {
        if (turn.due()) await turn.next();
        const decoded = decodeEntry(e);
        if (!decoded.ok || decoded.record.receivedAt > asOf) continue;
        cache.apply(decoded.record);
        folded++;
      }
  return folded;
}
