import type { BookCache, MarketsView } from '@app/books';
import type { JournalPositions } from '@app/journal';
import type { EventLog } from '@app/event-log';
import { horizonText, logHorizon } from './horizon';
import { rebuildBooks } from './rebuild-books';
import { TIME_BLOCK, timeIndexOf } from './time-index';

/** How far back the log reaches, or why it cannot give the books at an instant. */
export type AsOfReach =
  | { readonly ok: true; readonly reachesBackTo: number }
  | { readonly ok: false; readonly error: string; readonly reachesBackTo: number | null };

/**
 * Whether the log below `upTo` can give the books at `asOf`: refused when it holds no book record
 * at or before the instant (its earliest receivedAt, wherever it lies, since receivedAt need not
 * grow along a partition), or when retention cut a partition whose first retained block starts
 * after the instant (what was removed may have mattered). Reads the time index only.
 */
export async function reachAt(log: EventLog, upTo: JournalPositions, asOf: number): Promise<AsOfReach> {
  const index = timeIndexOf(log);
  let reach: number | null = null;
  let cut = -Infinity;
  for (const topic of ['books', 'venues'] as const)
    for (const [p, end] of upTo[topic].entries()) {
      if (end === 0) continue;
      const times = await index.partition(topic, p, end);
      if (topic === 'books' && times.least !== Infinity)
        reach = reach === null ? times.least : Math.min(reach, times.least);
      if (times.first !== null && times.first > 0) {
        const first = times.min[Math.floor(times.first / TIME_BLOCK)] ?? Infinity;
        if (first !== Infinity) cut = Math.max(cut, first);
      }
    }
  if (reach === null)
    return {
      ok: false,
      error: 'asOf is not available: the event log holds no book records yet',
      reachesBackTo: null,
    };
  reach = Math.max(reach, cut);
  // Below the retention horizon only each book's latest snapshot and what follows it are kept:
  // the books at an earlier instant cannot be rebuilt exactly (docs/operations-log.md "Retention").
  const horizon = (await logHorizon(log)).at;
  if (horizon !== null && asOf < horizon)
    return {
      ok: false,
      error: `asOf ${asOf} (${iso(asOf)}) is before the event log's retention horizon ${horizonText(horizon)}: retention has removed the records needed to rebuild the books then`,
      reachesBackTo: Math.max(reach, horizon),
    };
  if (asOf < reach)
    return {
      ok: false,
      error: `asOf ${asOf} (${iso(asOf)}) is before the oldest state the event log holds: it reaches back to ${reach} (${iso(reach)})`,
      reachesBackTo: reach,
    };
  return { ok: true, reachesBackTo: reach };
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/** The books as of an instant, ready to read, or why the log cannot give them. */
export type BooksAt =
  | {
      readonly ok: true;
      readonly cache: BookCache;
      /** What the solver may read: the cache without listings whose market record was lost. */
      readonly view: MarketsView;
      readonly positions: JournalPositions;
    }
  | { readonly ok: false; readonly error: string };

/**
 * The one "books at instant t" of the API (docs/api.md "asOf"), a versioned read: each book its
 * state after its record below `upTo` with the greatest receivedAt <= asOf (rebuildBooks with
 * asOf), whatever order receivedAt has along the log. Refused in the future of the service clock
 * `now` and before the oldest state the log holds. `positions` is `upTo`: with the request's
 * asOf it is what a journal record needs to rebuild the same books.
 */
export async function booksAt(
  log: EventLog,
  upTo: JournalPositions,
  asOf: number,
  now: number,
  symbols: ReadonlySet<string>,
): Promise<BooksAt> {
  if (asOf > now) return { ok: false, error: `asOf ${asOf} is in the future (service clock ${now})` };
  const reach = await reachAt(log, upTo, asOf);
  if (!reach.ok) return { ok: false, error: reach.error };
  const { cache, view } = await rebuildBooks(log, upTo, symbols, { asOf, timeIndex: timeIndexOf(log) });
  return { ok: true, cache, view, positions: upTo };
}
