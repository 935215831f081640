import { frameAsQuote, parseJournalEntryLine, type JournalEntryRecord, type QuoteRecord } from '@app/journal';
import { partitionFor, type EventLog } from '@app/log';
import type { KeyLookup } from './key-lookup';

export interface FoundQuote {
  /** The record to replay; for a stream frame, its tick's record under the frame's id and hash. */
  readonly record: QuoteRecord;
  readonly partition: number;
  readonly offset: number;
  /** Journal entries whose key was compared before the record was found. */
  readonly scanned: number;
  /** For a stream frame: where its tick's record is. */
  readonly tick?: { readonly partition: number; readonly offset: number };
}

const CHUNK = 4096;

/**
 * The newest journal record of `requestId`: through the requestId index when given (O(log n)
 * reads), else by reading the requestId's own partition newest entries first, comparing keys; a record found but invalid is an error, not a
 * miss. A stream frame record is resolved through the tick it points at.
 */
export async function findQuote(
  log: EventLog,
  requestId: string,
  index?: KeyLookup,
): Promise<FoundQuote | null> {
  const found = await findEntry(log, requestId, index);
  if (found === null) return null;
  const { record, partition, offset, scanned } = found;
  if (record.type === 'quote') return { record, partition, offset, scanned };
  const tick = await findEntry(log, record.tickId, index);
  if (tick === null)
    throw new Error(`stream frame ${requestId} points at tick ${record.tickId}, which is not in the journal`);
  if (tick.record.type !== 'quote' || tick.record.kind !== 'stream_tick')
    throw new Error(
      `stream frame ${requestId} points at ${record.tickId}, which is not a stream tick record`,
    );
  return {
    record: frameAsQuote(tick.record, record),
    partition,
    offset,
    scanned: scanned + tick.scanned,
    tick: { partition: tick.partition, offset: tick.offset },
  };
}

async function findEntry(
  log: EventLog,
  requestId: string,
  index?: KeyLookup,
): Promise<{ record: JournalEntryRecord; partition: number; offset: number; scanned: number } | null> {
  if (index !== undefined) {
    const { entries, partition, scanned } = await index.entries(requestId);
    const e = entries[entries.length - 1];
    if (e === undefined) return null;
    return {
      record: parseFound(requestId, partition, e.offset, e.value),
      partition,
      offset: e.offset,
      scanned,
    };
  }
  const n = await log.partitions('quotes');
  const partition = partitionFor(requestId, n);
  const end = (await log.highWatermarks('quotes'))[partition] ?? 0;
  let scanned = 0;
  for (let to = end; to > 0;) {
    const from = Math.max(0, to - CHUNK);
    const entries = await log.read('quotes', partition, from, to - from);
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      scanned++;
      if (e.key !== requestId) continue;
      return {
        record: parseFound(requestId, partition, e.offset, e.value),
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

function parseFound(requestId: string, partition: number, offset: number, value: string): JournalEntryRecord {
  const parsed = parseJournalEntryLine(value);
  if (!parsed.ok)
    throw new Error(
      `journal record of ${requestId} at quotes/${partition}@${offset} is invalid: ${parsed.error.message}`,
    );
  return parsed.record;
}
