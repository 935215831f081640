import { parseQuoteRecordLine, type QuoteRecord } from '@app/journal';
import { partitionFor, type EventLog } from '@app/log';

export interface FoundQuote {
  readonly record: QuoteRecord;
  readonly partition: number;
  readonly offset: number;
  /** Journal entries whose key was compared before the record was found. */
  readonly scanned: number;
}

const CHUNK = 4096;

/**
 * The newest journal record of `requestId`. Only the requestId's own partition is read, newest
 * entries first, comparing keys without parsing; a record found but invalid is an error, not a miss.
 */
export async function findQuote(log: EventLog, requestId: string): Promise<FoundQuote | null> {
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
      const parsed = parseQuoteRecordLine(e.value);
      if (!parsed.ok)
        throw new Error(
          `journal record of ${requestId} at quotes/${partition}@${e.offset} is invalid: ${parsed.error.message}`,
        );
      return { record: parsed.record, partition, offset: e.offset, scanned };
    }
    // Entries may have been removed by retention: continue from the first one actually read.
    to = entries.length > 0 && entries[0]!.offset < to ? Math.min(from, entries[0]!.offset) : from;
  }
  return null;
}
