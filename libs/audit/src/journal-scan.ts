import { JOURNAL_TOPICS, type JournalTopic } from '@app/events';
import { frameAsQuote, type QuoteRecord } from '@app/journal';
import { partitionFor, type EventLog, type LogEntry } from '@app/event-log';
import { indexOf } from './find-quote';
import { parseJournalEntryLine } from './journal-parse';
import type { JournalLookups, KeyLookup } from './key-lookup';

/** Where a journal entry is. */
interface At {
  readonly topic: JournalTopic;
  readonly partition: number;
  readonly offset: number;
}

/**
 * One journal entry as an auditor sees it: where it is, and either the record to replay (a stream
 * frame already resolved through its tick) or why it cannot be replayed.
 */
export type JournalOccurrence =
  | (At & {
      readonly ok: true;
      readonly record: QuoteRecord;
      /** For a stream frame: where its tick's record is. */
      readonly tick?: At;
    })
  | (At & { readonly ok: false; readonly problem: string });

type Tick = At & { readonly record: QuoteRecord };

const CHUNK = 4096;

/** Every entry of one partition of a journal topic from its first retained offset to its end at call time. */
export async function* scanPartition(
  log: EventLog,
  topic: JournalTopic,
  partition: number,
): AsyncGenerator<LogEntry> {
  const end = (await log.highWatermarks(topic))[partition] ?? 0;
  for (let from = 0; from < end;) {
    const entries = await log.read(topic, partition, from, Math.min(CHUNK, end - from));
    if (entries.length === 0) return;
    for (const e of entries) if (e.offset < end) yield e;
    from = entries[entries.length - 1]!.offset + 1;
  }
}

/** Resolve one parsed entry (a frame through its tick, read back from its position). */
async function occurrence(
  topic: JournalTopic,
  e: LogEntry,
  tickAt: (tickId: string) => Promise<Tick | string>,
): Promise<JournalOccurrence> {
  const at = { topic, partition: e.partition, offset: e.offset };
  const parsed = parseJournalEntryLine(e.value);
  if (!parsed.ok) return { ok: false, ...at, problem: `invalid journal record: ${parsed.error.message}` };
  const r = parsed.record;
  if (r.type === 'quote') return { ok: true, ...at, record: r };
  const tick = await tickAt(r.tickId);
  if (typeof tick === 'string') return { ok: false, ...at, problem: tick };
  return {
    ok: true,
    ...at,
    record: frameAsQuote(tick.record, r),
    tick: { topic: tick.topic, partition: tick.partition, offset: tick.offset },
  };
}

/** The newest stream tick record of `tickId` (in `stream`, else `quotes` for older journals), or why there is none. */
async function findTick(
  log: EventLog,
  tickId: string,
  index?: KeyLookup | JournalLookups,
): Promise<Tick | string> {
  for (const topic of ['stream', 'quotes'] as const) {
    const partition = partitionFor(tickId, await log.partitions(topic));
    const ix = indexOf(index, topic);
    let found: LogEntry | null = null;
    if (ix !== undefined) found = (await ix.entries(tickId)).entries.at(-1) ?? null;
    else for await (const e of scanPartition(log, topic, partition)) if (e.key === tickId) found = e;
    if (found === null) continue;
    const parsed = parseJournalEntryLine(found.value);
    if (!parsed.ok || parsed.record.type !== 'quote' || parsed.record.kind !== 'stream_tick')
      return `its stream tick ${tickId} at ${topic}/${partition}@${found.offset} is not a valid stream tick record`;
    return { topic, partition, offset: found.offset, record: parsed.record };
  }
  return `its stream tick ${tickId} is not in the journal`;
}

/**
 * Every journal entry keyed `requestId`, `quotes` first then `stream`, each oldest first (a client
 * may reuse an x-request-id, so one id can have several quotes). Through the requestId indexes
 * when given (O(log n) reads, plus the tail they do not cover yet), else by reading the id's whole
 * partition of each topic, comparing keys.
 */
export async function findQuotes(
  log: EventLog,
  requestId: string,
  index?: KeyLookup | JournalLookups,
): Promise<JournalOccurrence[]> {
  const out: JournalOccurrence[] = [];
  for (const topic of JOURNAL_TOPICS) {
    const partition = partitionFor(requestId, await log.partitions(topic));
    const ix = indexOf(index, topic);
    let hits: LogEntry[] = [];
    if (ix !== undefined) hits = (await ix.entries(requestId)).entries;
    else for await (const e of scanPartition(log, topic, partition)) if (e.key === requestId) hits.push(e);
    for (const e of hits) out.push(await occurrence(topic, e, (id) => findTick(log, id, index)));
  }
  return out;
}

type EntryTime =
  { readonly tickId: string } | { readonly at: number; readonly tick: boolean } | 'stream_event' | null;

/**
 * An entry's time (calculatedAt; a frame's is its tick's), `stream_event` for a v2 stream's open
 * or close (no result: `replay stream` reads them), or null when it is not even JSON.
 */
function entryTime(value: string): EntryTime {
  try {
    const v = JSON.parse(value) as {
      calculatedAt?: unknown;
      tickId?: unknown;
      type?: unknown;
      kind?: unknown;
    };
    if (v.type === 'quote_frame' && typeof v.tickId === 'string') return { tickId: v.tickId };
    if (v.type === 'stream_open' || v.type === 'stream_close') return 'stream_event';
    return typeof v.calculatedAt === 'number' ? { at: v.calculatedAt, tick: v.kind === 'stream_tick' } : null;
  } catch {
    return null;
  }
}

/**
 * Every journal entry whose quote was calculated in [from, to] (epoch ms), topic by topic
 * (`quotes`, then `stream`) and partition by partition in offset order, stream frames (timed by
 * their tick) after the quotes. An entry whose time cannot be read at all (not JSON) is yielded as
 * not replayable wherever it lies: an auditor must hear of it. Reads both journal topics once;
 * frames' ticks are re-read by position.
 */
export async function* journalInRange(
  log: EventLog,
  from: number,
  to: number,
): AsyncGenerator<JournalOccurrence> {
  const ticks = new Map<string, At & { at: number }>();
  const frames: { topic: JournalTopic; entry: LogEntry }[] = [];
  for (const topic of JOURNAL_TOPICS) {
    const n = await log.partitions(topic);
    for (let p = 0; p < n; p++) {
      for await (const e of scanPartition(log, topic, p)) {
        const t = entryTime(e.value);
        if (t === 'stream_event') continue;
        if (t !== null && 'tickId' in t) {
          frames.push({ topic, entry: e });
          continue;
        }
        if (t !== null) {
          // A tick is never sent as it is: its frames, replayed below, are what clients received.
          if (t.tick) ticks.set(e.key, { topic, partition: p, offset: e.offset, at: t.at });
          if (t.tick || t.at < from || t.at > to) continue;
        }
        yield await occurrence(topic, e, (id) => findTick(log, id));
      }
    }
  }
  for (const { topic, entry } of frames) {
    const { tickId } = entryTime(entry.value) as { tickId: string };
    const tick = ticks.get(tickId);
    if (tick !== undefined && (tick.at < from || tick.at > to)) continue;
    yield await occurrence(topic, entry, async (id) => {
      if (tick === undefined) return findTick(log, id);
      const [read] = await log.read(tick.topic, tick.partition, tick.offset, 1);
      const parsed = read === undefined ? null : parseJournalEntryLine(read.value);
      if (parsed === null || !parsed.ok || parsed.record.type !== 'quote')
        return `its stream tick ${id} at ${tick.topic}/${tick.partition}@${tick.offset} is not a valid record`;
      return { topic: tick.topic, partition: tick.partition, offset: tick.offset, record: parsed.record };
    });
  }
}
