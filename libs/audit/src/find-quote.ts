import { JOURNAL_TOPICS, type JournalTopic } from '@app/events';
import { frameAsQuote, type JournalEntryRecord, type QuoteRecord } from '@app/journal';
import { partitionFor, type EventLog } from '@app/event-log';
import { parseJournalEntryLine } from './journal-parse';
import type { JournalLookups, KeyLookup } from './key-lookup';

export interface FoundQuote {
  /** The record to replay; for a stream frame, its tick's record under the frame's id and hash. */
  readonly record: QuoteRecord;
  /** The journal topic it is in: `quotes` (REST) or `stream`. */
  readonly topic: JournalTopic;
  readonly partition: number;
  readonly offset: number;
  /** Journal entries whose key was compared before the record was found. */
  readonly scanned: number;
  /** For a stream frame: where its tick's record is. */
  readonly tick?: { readonly topic: JournalTopic; readonly partition: number; readonly offset: number };
}

const CHUNK = 4096;

/** The lookup of `topic` among what a caller passed (a single lookup covers its own topic only). */
export function indexOf(
  indexes: KeyLookup | JournalLookups | undefined,
  topic: JournalTopic,
): KeyLookup | undefined {
  if (indexes === undefined) return undefined;
  if ('entries' in indexes) return (indexes.topic ?? 'quotes') === topic ? indexes : undefined;
  return indexes[topic];
}

/**
 * The newest journal record of `requestId`, looked for in `quotes` and then `stream`: through the
 * requestId index when given (O(log n) reads), else by reading the requestId's own partition
 * newest entries first, comparing keys; a record found but invalid is an error, not a miss. A
 * stream frame record is resolved through the tick it points at (in `stream`, or in `quotes` for
 * a journal written before the stream had a topic of its own).
 */
export async function findQuote(
  log: EventLog,
  requestId: string,
  index?: KeyLookup | JournalLookups,
): Promise<FoundQuote | null> {
  let found: Entry | null = null;
  for (const topic of JOURNAL_TOPICS) {
    found = await findEntry(log, topic, requestId, indexOf(index, topic));
    if (found !== null) break;
  }
  if (found === null) return null;
  const { record, topic, partition, offset, scanned } = found;
  if (record.type === 'quote') return { record, topic, partition, offset, scanned };
  let tick: Entry | null = null;
  for (const t of ['stream', 'quotes'] as const) {
    tick = await findEntry(log, t, record.tickId, indexOf(index, t));
    if (tick !== null) break;
  }
  if (tick === null)
    throw new Error(`stream frame ${requestId} points at tick ${record.tickId}, which is not in the journal`);
  if (tick.record.type !== 'quote' || tick.record.kind !== 'stream_tick')
    throw new Error(
      `stream frame ${requestId} points at ${record.tickId}, which is not a stream tick record`,
    );
  return {
    record: frameAsQuote(tick.record, record),
    topic,
    partition,
    offset,
    scanned: scanned + tick.scanned,
    tick: { topic: tick.topic, partition: tick.partition, offset: tick.offset },
  };
}

interface Entry {
  readonly record: JournalEntryRecord;
  readonly topic: JournalTopic;
  readonly partition: number;
  readonly offset: number;
  readonly scanned: number;
}

async function findEntry(
  log: EventLog,
  topic: JournalTopic,
  requestId: string,
  index?: KeyLookup,
): Promise<Entry | null> {
  if (index !== undefined) {
    const { entries, partition, scanned } = await index.entries(requestId);
    const e = entries[entries.length - 1];
    if (e === undefined) return null;
    return {
      record: parseFound(topic, requestId, partition, e.offset, e.value),
      topic,
      partition,
      offset: e.offset,
      scanned,
    };
  }
  const n = await log.partitions(topic);
  const partition = partitionFor(requestId, n);
  const end = (await log.highWatermarks(topic))[partition] ?? 0;
  let scanned = 0;
  for (let to = end; to > 0;) {
    const from = Math.max(0, to - CHUNK);
    const entries = await log.read(topic, partition, from, to - from);
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      scanned++;
      if (e.key !== requestId) continue;
      return {
        record: parseFound(topic, requestId, partition, e.offset, e.value),
        topic,
        partition,
        offset: e.offset,
        scanned,
      };
    }
    // Entries may have been removed by retention: continue from the first one actually read.
    to = entries.length > 0 && entries[0]!.offset < to ? Math.min(from, entries[0]!.offset) : from;
  }
  return null;
}

function parseFound(
  topic: JournalTopic,
  requestId: string,
  partition: number,
  offset: number,
  value: string,
): JournalEntryRecord {
  const parsed = parseJournalEntryLine(value);
  if (!parsed.ok)
    throw new Error(
      `journal record of ${requestId} at ${topic}/${partition}@${offset} is invalid: ${parsed.error.message}`,
    );
  return parsed.record;
}
