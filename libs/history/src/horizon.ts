import { parseRecordLine } from '@app/events';
import type { JournalPositions } from '@app/journal';
import { LogError, type EventLog } from '@app/event-log';

/** Where retention has cut the log (docs/operations-log.md "Retention"). */
export interface LogHorizon {
  /**
   * The first instant from which every book can be rebuilt: receivedAt of the first entry kept
   * whole in a partition retention has cut (the latest such over partitions); null while retention
   * has removed nothing (the log reaches back to its first record).
   */
  readonly at: number | null;
  /** Per partition of books and venues, the first offset from which every entry is kept. */
  readonly retainedFrom: { readonly books: number[]; readonly venues: number[] };
}

/** Entries read after a horizon offset to find the first one with a receivedAt. */
const WINDOW = 32;

/** The log's retention horizon now: what asOf, replay and backtests can reach back to. */
export async function logHorizon(log: EventLog): Promise<LogHorizon> {
  const [books, venues] = await Promise.all([log.retainedFrom('books'), log.retainedFrom('venues')]);
  let at: number | null = null;
  for (const [topic, from] of [
    ['books', books],
    ['venues', venues],
  ] as const)
    for (let p = 0; p < from.length; p++) {
      if (from[p] === 0) continue;
      for (const e of await log.read(topic, p, from[p]!, WINDOW)) {
        const parsed = parseRecordLine(e.value);
        if (!parsed.ok) continue;
        at = Math.max(at ?? parsed.record.receivedAt, parsed.record.receivedAt);
        break;
      }
    }
  return { at, retainedFrom: { books, venues } };
}

/** The horizon as text for an error: epoch ms and ISO time. */
export function horizonText(at: number): string {
  return `${at} (${new Date(at).toISOString()})`;
}

/**
 * Refuse log positions below the retention horizon (a journalled quote older than what the log
 * keeps): the books there cannot be rebuilt exactly. Throws LogError 'not_found' naming the horizon.
 */
export async function refuseBeforeHorizon(log: EventLog, positions: JournalPositions): Promise<void> {
  const [books, venues] = await Promise.all([log.retainedFrom('books'), log.retainedFrom('venues')]);
  const below =
    positions.books.some((o, p) => o < (books[p] ?? 0)) ||
    positions.venues.some((o, p) => o < (venues[p] ?? 0));
  if (!below) return;
  const h = await logHorizon(log);
  throw new LogError(
    'not_found',
    `the log positions asked for are before the event log's retention horizon${h.at === null ? '' : ` ${horizonText(h.at)}`}: retention has removed the books needed to rebuild them`,
  );
}
