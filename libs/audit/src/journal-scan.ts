import { frameAsQuote, parseJournalEntryLine, type QuoteRecord } from '@app/journal';
import { partitionFor, type EventLog, type LogEntry } from '@app/log';
import type { KeyLookup } from './key-lookup';

/**
 * One journal entry as an auditor sees it: where it is, and either the record to replay (a stream
 * frame already resolved through its tick) or why it cannot be replayed.
 */
export type JournalOccurrence =
  | {
      readonly ok: true;
      readonly partition: number;
      readonly offset: number;
      readonly record: QuoteRecord;
      /** For a stream frame: where its tick's record is. */
      readonly tick?: { readonly partition: number; readonly offset: number };
    }
  | { readonly ok: false; readonly partition: number; readonly offset: number; readonly problem: string };

const CHUNK = 4096;

/** Every entry of one partition of `quotes` from its first retained offset to its end at call time. */
async function* scanPartition(log: EventLog, partition: number): AsyncGenerator<LogEntry> {
  const end = (await log.highWatermarks('quotes'))[partition] ?? 0;
  for (let from = 0; from < end;) {
    const entries = await log.read('quotes', partition, from, Math.min(CHUNK, end - from));
    if (entries.length === 0) return;
    for (const e of entries) if (e.offset < end) yield e;
    from = entries[entries.length - 1]!.offset + 1;
  }
}

/** Resolve one parsed entry (a frame through its tick, read back from its position). */
async function occurrence(
  log: EventLog,
  e: LogEntry,
  tickAt: (tickId: string) => Promise<{ partition: number; offset: number; record: QuoteRecord } | string>,
): Promise<JournalOccurrence> {
  const at = { partition: e.partition, offset: e.offset };
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
    tick: { partition: tick.partition, offset: tick.offset },
  };
}

/** The newest stream tick record of `tickId`, or why there is none. */
async function findTick(
  log: EventLog,
  tickId: string,
  index?: KeyLookup,
): Promise<{ partition: number; offset: number; record: QuoteRecord } | string> {
  const partition = partitionFor(tickId, await log.partitions('quotes'));
  let found: LogEntry | null = null;
  if (index !== undefined) found = (await index.entries(tickId)).entries.at(-1) ?? null;
  else for await (const e of scanPartition(log, partition)) if (e.key === tickId) found = e;
  if (found === null) return `its stream tick ${tickId} is not in the journal`;
  const parsed = parseJournalEntryLine(found.value);
  if (!parsed.ok || parsed.record.type !== 'quote' || parsed.record.kind !== 'stream_tick')
    return `its stream tick ${tickId} at quotes/${partition}@${found.offset} is not a valid stream tick record`;
  return { partition, offset: found.offset, record: parsed.record };
}

/**
 * Every journal entry keyed `requestId`, oldest first (a client may reuse an x-request-id, so one
 * id can have several quotes). Through the requestId index when given (O(log n) reads, plus the
 * tail it does not cover yet), else by reading the id's whole partition, comparing keys.
 */
export async function findQuotes(
  log: EventLog,
  requestId: string,
  index?: KeyLookup,
): Promise<JournalOccurrence[]> {
  const partition = partitionFor(requestId, await log.partitions('quotes'));
  let hits: LogEntry[] = [];
  if (index !== undefined) hits = (await index.entries(requestId)).entries;
  else for await (const e of scanPartition(log, partition)) if (e.key === requestId) hits.push(e);
  const out: JournalOccurrence[] = [];
  for (const e of hits) out.push(await occurrence(log, e, (id) => findTick(log, id, index)));
  return out;
}

type EntryTime = { readonly tickId: string } | { readonly at: number; readonly tick: boolean } | null;

/** An entry's time (calculatedAt; a frame's is its tick's), or null when it is not even JSON. */
function entryTime(value: string): EntryTime {
  try {
    const v = JSON.parse(value) as {
      calculatedAt?: unknown;
      tickId?: unknown;
      type?: unknown;
      kind?: unknown;
    };
    if (v.type === 'quote_frame' && typeof v.tickId === 'string') return { tickId: v.tickId };
    return typeof v.calculatedAt === 'number' ? { at: v.calculatedAt, tick: v.kind === 'stream_tick' } : null;
  } catch {
    return null;
  }
}

/**
 * Every journal entry whose quote was calculated in [from, to] (epoch ms), partition by partition
 * in offset order, stream frames (timed by their tick) after the quotes. An entry whose time
 * cannot be read at all (not JSON) is yielded as not replayable wherever it lies: an auditor must
 * hear of it. Reads the whole `quotes` topic once; frames' ticks are re-read by position.
 */
export async function* journalInRange(
  log: EventLog,
  from: number,
  to: number,
): AsyncGenerator<JournalOccurrence> {
  const n = await log.partitions('quotes');
  const ticks = new Map<string, { partition: number; offset: number; at: number }>();
  const frames: LogEntry[] = [];
  for (let p = 0; p < n; p++) {
    for await (const e of scanPartition(log, p)) {
      const t = entryTime(e.value);
      if (t !== null && 'tickId' in t) {
        frames.push(e);
        continue;
      }
      if (t !== null) {
        // A tick is never sent as it is: its frames, replayed below, are what clients received.
        if (t.tick) ticks.set(e.key, { partition: p, offset: e.offset, at: t.at });
        if (t.tick || t.at < from || t.at > to) continue;
      }
      yield await occurrence(log, e, (id) => findTick(log, id));
    }
  }
  for (const e of frames) {
    const { tickId } = entryTime(e.value) as { tickId: string };
    const tick = ticks.get(tickId);
    if (tick !== undefined && (tick.at < from || tick.at > to)) continue;
    yield await occurrence(log, e, async (id) => {
      if (tick === undefined) return findTick(log, id);
      const [entry] = await log.read('quotes', tick.partition, tick.offset, 1);
      const parsed = entry === undefined ? null : parseJournalEntryLine(entry.value);
      if (parsed === null || !parsed.ok || parsed.record.type !== 'quote')
        return `its stream tick ${id} at quotes/${tick.partition}@${tick.offset} is not a valid record`;
      return { partition: tick.partition, offset: tick.offset, record: parsed.record };
    });
  }
}
