import { errorMessage } from '@app/retry';
import { RECORD_TOPICS, recordKey, topicOf, type EventRecord } from '@app/events';
import type { AppendEntry, EventLog } from './event-log';
import { LogError } from './log-error';

/** Where producers (the ingestor, the replay feeder) write validated records. */
export interface RecordSink {
  /**
   * Write the records (per-key order kept). A failure may be a LogError whose `appended` and
   * `rejected` index into `records`: those are in the log, or can never be, so a retry sends the rest.
   */
  write(records: readonly EventRecord[]): Promise<void>;
}

/**
 * A sink that appends records to the log: book records to `books` (key `exchangeId|symbol`,
 * snapshots marked for the rebuild index), market and venue records to `venues` (key
 * `exchangeId`). Venue-topic entries are appended first so a market is listed before its books.
 */
export function logSink(log: EventLog): RecordSink {
  return {
    async write(records: readonly EventRecord[]): Promise<void> {
      const byTopic: Record<'books' | 'venues', { entries: AppendEntry[]; at: number[] }> = {
        books: { entries: [], at: [] },
        venues: { entries: [], at: [] },
      };
      for (let i = 0; i < records.length; i++) {
        const record = records[i]!;
        const topic = byTopic[topicOf(record.type) as 'books' | 'venues'];
        topic.entries.push({
          key: recordKey(record),
          value: JSON.stringify(record),
          snapshot: record.type === 'book' && record.snapshot,
        });
        topic.at.push(i);
      }
      const done: number[] = [];
      for (const name of RECORD_TOPICS) {
        const { entries, at } = byTopic[name];
        if (entries.length === 0) continue;
        try {
          await log.append(name, entries);
        } catch (caught) {
          const e = caught instanceof LogError ? caught : new LogError('unavailable', errorMessage(caught));
          // Indices of this topic's entries, back into `records`.
          throw new LogError(e.code, e.message, {
            appended: [...done, ...e.appended.map((j) => at[j]!)],
            rejected: e.rejected.map((j) => at[j]!),
          });
        }
        done.push(...at);
      }
    },
  };
}
