import type { BookCache } from '@app/books';
import { parseRecordLine } from '@app/events';
import type { JournalPositions } from '@app/journal';
import type { EventLog } from '@app/log';
import { rebuildBooks } from './rebuild-books';

/** Where the log stood at an instant, or why it cannot say. */
export type AsOfCut =
  | { readonly ok: true; readonly positions: JournalPositions }
  | { readonly ok: false; readonly error: string; readonly reachesBackTo: number | null };

/** Entries read per probe: a few probes of this size find a cut in a partition of any length. */
const WINDOW = 32;

type Topic = 'books' | 'venues';

interface PartitionCut {
  /** First offset whose record arrived after the instant (the partition's position at it). */
  readonly cut: number;
  /** receivedAt of the first retained record, and whether retention removed older ones. */
  readonly first: { readonly at: number; readonly truncated: boolean } | null;
}

/**
 * The log's position vector at instant `asOf`: per partition of `books` and `venues`, the first
 * offset below `upTo` whose record has `receivedAt > asOf`, found by interpolation search (the
 * ingestor appends in receipt order, so receivedAt grows along a partition). Folding the log up
 * to these positions gives the books as they were at `asOf`: for each book its latest snapshot at
 * or before the instant and the deltas after it. Refused when the instant lies before the oldest
 * state the log still holds: before its first book record, or before the first retained record
 * of a partition that retention has cut.
 */
export async function positionsAt(log: EventLog, upTo: JournalPositions, asOf: number): Promise<AsOfCut> {
  // Below a partition's retention horizon only the entries retention kept (each book's latest
  // snapshot and what follows it) remain: the search starts at the horizon (libs/log retainedFrom).
  const [bookFrom, venueFrom] = await Promise.all([log.retainedFrom('books'), log.retainedFrom('venues')]);
  const [books, venues] = await Promise.all([
    Promise.all(upTo.books.map((u, p) => cutPartition(log, 'books', p, u, asOf, bookFrom[p] ?? 0))),
    Promise.all(upTo.venues.map((u, p) => cutPartition(log, 'venues', p, u, asOf, venueFrom[p] ?? 0))),
  ]);
  let reach: number | null = null;
  for (const c of books)
    if (c.first !== null) reach = reach === null ? c.first.at : Math.min(reach, c.first.at);
  for (const c of [...books, ...venues])
    if (c.first?.truncated === true) reach = Math.max(reach ?? c.first.at, c.first.at);
  if (reach === null)
    return {
      ok: false,
      error: 'asOf is not available: the event log holds no book records yet',
      reachesBackTo: null,
    };
  if (asOf < reach)
    return {
      ok: false,
      error: `asOf ${asOf} (${iso(asOf)}) is before the oldest state the event log holds: it reaches back to ${reach} (${iso(reach)}), its retention horizon`,
      reachesBackTo: reach,
    };
  return { ok: true, positions: { books: books.map((c) => c.cut), venues: venues.map((c) => c.cut) } };
}

async function cutPartition(
  log: EventLog,
  topic: Topic,
  partition: number,
  upTo: number,
  asOf: number,
  retainedFrom: number,
): Promise<PartitionCut> {
  if (upTo === 0) return { cut: 0, first: null };
  const head = timed(await log.read(topic, partition, retainedFrom, WINDOW), upTo);
  const first = head[0];
  if (first === undefined) return { cut: upTo, first: null };
  const info = { at: first.at, truncated: first.offset > 0 };
  // Invariant: entries up to lo arrived at or before asOf; hi is the first known to arrive after.
  let lo = first.offset - 1;
  let loAt = first.at;
  let hi = upTo;
  let hiAt = Number.NaN;
  const take = (window: readonly Timed[]): void => {
    for (const e of window) {
      if (e.at > asOf) {
        if (e.offset < hi) [hi, hiAt] = [e.offset, e.at];
        return;
      }
      if (e.offset > lo) [lo, loAt] = [e.offset, e.at];
    }
  };
  take(head);
  let guess = true;
  while (hi - lo > 1) {
    const span = hi - lo - 1;
    let from: number;
    if (span <= WINDOW) from = lo + 1;
    // Recent instants are the common case: look at the tail first.
    else if (Number.isNaN(hiAt)) from = hi - WINDOW;
    else if (guess && hiAt > loAt) {
      // Records arrive at a roughly steady rate: guess the offset from the time.
      const at = lo + 1 + Math.floor(((asOf - loAt) / (hiAt - loAt)) * span) - WINDOW / 2;
      from = Math.min(Math.max(lo + 1, at), hi - WINDOW);
    } else from = lo + 1 + Math.floor((span - WINDOW) / 2);
    const raw = await log.read(topic, partition, from, Math.min(WINDOW, span));
    const window = timed(raw, hi);
    const last = raw.length === 0 ? from - 1 : Math.min(hi - 1, raw[raw.length - 1]!.offset);
    if (window.length === 0) {
      // Nothing readable there (malformed entries are skipped by every fold): step over it.
      if (last < from) return { cut: hi, first: info };
      lo = last;
    } else take(window);
    if (span <= WINDOW) break;
    // A guess that did not halve the range is followed by one bisection step.
    guess = hi - lo - 1 <= span / 2;
  }
  return { cut: hi, first: info };
}

interface Timed {
  readonly offset: number;
  readonly at: number;
}

/** receivedAt of each well-formed entry below `below`; malformed entries are skipped, as the feed skips them. */
function timed(entries: readonly { offset: number; value: string }[], below: number): Timed[] {
  const out: Timed[] = [];
  for (const e of entries) {
    if (e.offset >= below) break;
    const parsed = parseRecordLine(e.value);
    if (parsed.ok) out.push({ offset: e.offset, at: parsed.record.receivedAt });
  }
  return out;
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/** The books as of an instant, ready to read, or why the log cannot give them. */
export type BooksAt =
  | { readonly ok: true; readonly cache: BookCache; readonly positions: JournalPositions }
  | { readonly ok: false; readonly error: string };

/**
 * The one "books at instant t" of the API (docs/api.md "asOf"): refused in the future of the
 * service clock `now` and before the oldest state the log holds; otherwise the log's position at
 * `asOf` (positionsAt) and the books of `symbols` rebuilt there (rebuildBooks).
 */
export async function booksAt(
  log: EventLog,
  upTo: JournalPositions,
  asOf: number,
  now: number,
  symbols: ReadonlySet<string>,
): Promise<BooksAt> {
  if (asOf > now) return { ok: false, error: `asOf ${asOf} is in the future (service clock ${now})` };
  const cut = await positionsAt(log, upTo, asOf);
  if (!cut.ok) return { ok: false, error: cut.error };
  const { cache } = await rebuildBooks(log, cut.positions, symbols);
  return { ok: true, cache, positions: cut.positions };
}
