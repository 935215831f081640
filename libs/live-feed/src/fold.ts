import type { BookCache } from '@app/books';
import { parseRecordLine, type EventRecord, type TopicName } from '@app/events';
import { nextTurn, type EventLog, type LogEntry } from '@app/event-log';

/** A log entry that is not a valid record: never applied, not even in part, and named (events.md). */
export interface SkippedEntry {
  readonly topic: TopicName;
  readonly partition: number;
  readonly offset: number;
  readonly problem: string;
}

export type DecodedEntry =
  | { readonly ok: true; readonly record: EventRecord }
  | { readonly ok: false; readonly skipped: SkippedEntry };

/** Parse one log entry's value as an event record. */
export function decodeEntry(entry: LogEntry): DecodedEntry {
  const parsed = parseRecordLine(entry.value);
  if (parsed.ok) return { ok: true, record: parsed.record };
  const { topic, partition, offset } = entry;
  return { ok: false, skipped: { topic, partition, offset, problem: parsed.error.message } };
}

/** Told each record as it is applied (the feed's change tracking). */
export type OnApplied = (record: EventRecord, entry: LogEntry) => void;
export type OnSkipped = (skipped: SkippedEntry) => void;

/**
 * The one fold step every reader of the log shares (the API's feed, asOf and replay rebuilds,
 * backtests, the benchmarks): parse each entry in order, skip and name a bad one, apply the rest.
 * Returns how many records were applied.
 */
export function foldEntries(
  entries: readonly LogEntry[],
  cache: BookCache,
  onSkipped: OnSkipped,
  onApplied?: OnApplied,
): number {
  let applied = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const decoded = decodeEntry(entry);
    if (!decoded.ok) {
      onSkipped(decoded.skipped);
      continue;
    }
    cache.apply(decoded.record);
    applied++;
    onApplied?.(decoded.record, entry);
  }
  return applied;
}

/**
 * The entries of one partition from `from` up to (excluding) `to`, in the log's order, in chunks
 * of at most `chunk`. A range retention removed is passed over (the chunk starts later than asked).
 */
export async function* readRange(
  log: EventLog,
  topic: TopicName,
  partition: number,
  from: number,
  to: number,
  chunk = 10_000,
): AsyncGenerator<LogEntry[]> {
  for (let next = from; next < to;) {
    const entries = await log.read(topic, partition, next, Math.min(chunk, to - next));
    await nextTurn();
    let end = entries.length;
    while (end > 0 && entries[end - 1]!.offset >= to) end--;
    if (end === 0) return;
    yield end === entries.length ? entries : entries.slice(0, end);
    next = entries[end - 1]!.offset + 1;
  }
}
