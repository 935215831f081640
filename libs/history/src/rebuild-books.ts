import { BookCache, withoutListings } from '@app/books';
import type { EventRecord } from '@app/events';
import type { JournalPositions } from '@app/journal';
import { partitionFor, TurnBudget, type EventLog } from '@app/event-log';
import { decodeEntry, lostListings, readRange, VenuesTracker } from '@app/live-feed';
import { refuseBeforeHorizon } from './horizon';
import { rebuildAt } from './rebuild-at';
import { repairLost } from './repair-lost';
import type { Rebuilt } from './rebuilt';
import { timeIndexOf, type TimeIndex } from './time-index';

/** Backward reads start small (the snapshots needed are usually recent) and double up to MAX_CHUNK. */
const FIRST_CHUNK = 256;
const MAX_CHUNK = 8192;
/** Entries read backwards in one partition before the rebuild index is asked for a lower bound. */
const INDEX_AFTER = 50_000;

export type { RebuildStats, Rebuilt } from './rebuilt';

export interface RebuildOptions {
  /**
   * The versioned read (docs/replay.md "The books at an instant"): each book, market and venue as
   * it was after its record with the greatest receivedAt <= asOf below `positions` (ties: the
   * later position), that state computed in log order. Omitted: the fold of every record below.
   */
  readonly asOf?: number;
  /**
   * The time index the versioned read bounds its reads with (default: this process's index of
   * the log, built on first use by reading each partition once).
   */
  readonly timeIndex?: TimeIndex;
  /**
   * A replay's second try: give the listings whose market or venue record was lost to damage
   * below the positions the first copies written after it (`repairLost`), instead of withholding them.
   */
  readonly repairLost?: boolean;
}

/**
 * A BookCache holding exactly what `solve` may read for `symbols` at `positions` (and `asOf`).
 * Without asOf: every market and venue record below the venues positions, and for each book of
 * those symbols the fold, in log order, of its records below the books position: its latest
 * snapshot plus the deltas after it, a skipped delta leaving the book out of sync until its next
 * snapshot, as events.md says. The books topic is read backwards from the recorded position, and
 * a partition stops as soon as each of its needed books has shown a snapshot, so the work depends
 * on the snapshot interval, not on the log's length. The log's rebuild index bounds the scan when
 * a book has no snapshot at all. With asOf: the versioned read (`versionedScan`) of every book of
 * those symbols, every market of those symbols and every venue.
 */
export async function rebuildBooks(
  log: EventLog,
  positions: JournalPositions,
  symbols: ReadonlySet<string>,
  options: RebuildOptions = {},
): Promise<Rebuilt> {
  await refuseBeforeHorizon(log, positions);
  if (options.asOf !== undefined)
    return rebuildAt(
      log,
      positions,
      symbols,
      options.asOf,
      options.timeIndex ?? timeIndexOf(log),
      options.repairLost === true,
    );
  const cache = new BookCache();
  // The API rebuilds past books between requests: give way every few ms (parsing large snapshots).
  const turn = new TurnBudget();
  const venues = await foldVenues(log, positions, cache, turn);
  const nVenues = positions.venues.length;
  // Before the books are chosen: a repaired market lists its venue again.
  const repairs =
    options.repairLost === true
      ? await repairLost(
          log,
          nVenues,
          venues.tracker.gaps,
          venues.tracker.candidates(symbols, nVenues),
          cache,
        )
      : [];
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
        if (turn.due()) await turn.next();
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
        if (turn.due()) await turn.next();
        cache.apply(got[i]!);
        folded++;
      }
    }
  }
  const withheld = lostListings(cache, nVenues, venues.tracker.gaps, venues.tracker);
  for (const r of repairs) withheld.delete(r.listing);
  return {
    cache,
    view: withoutListings(cache, withheld),
    withheld,
    gaps: venues.tracker.gaps,
    repairs,
    stats: { bookEntriesRead: read, bookRecordsFolded: folded, venueRecordsFolded: venues.folded, books },
  };
}

/**
 * Fold every market and venue record below the recorded venues positions (a small topic), noting
 * where each lies and the offsets never read (lost to damage).
 */
async function foldVenues(
  log: EventLog,
  positions: JournalPositions,
  cache: BookCache,
  turn: TurnBudget,
): Promise<{ folded: number; tracker: VenuesTracker }> {
  const tracker = new VenuesTracker();
  const n = await log.partitions('venues');
  if (positions.venues.length !== n)
    throw new Error(
      `the record's venues position has ${positions.venues.length} partitions, the log has ${n}`,
    );
  let folded = 0;
  for (let p = 0; p < n; p++) {
    for await (const entries of readRange(log, 'venues', p, 0, positions.venues[p]!))
      for (const e of entries) {
        if (turn.due()) await turn.next();
        const decoded = decodeEntry(e);
        tracker.entry(p, e.offset, decoded.ok ? decoded.record : null);
        if (!decoded.ok) continue;
        cache.apply(decoded.record);
        folded++;
      }
    tracker.end(p, positions.venues[p]!);
  }
  return { folded, tracker };
}
