import { RECORD_TOPICS, recordKey, topicOf, type EventRecord } from '@app/events';
import type { AppendEntry, EventLog } from './event-log';

/** Where producers (the ingestor, the replay feeder) write validated records. */
export interface RecordSink {
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
      const byTopic: Record<'books' | 'venues', AppendEntry[]> = { books: [], venues: [] };
      for (const record of records) {
        const topic = topicOf(record.type) as 'books' | 'venues';
        byTopic[topic].push({
          key: recordKey(record),
          value: JSON.stringify(record),
          snapshot: record.type === 'book' && record.snapshot,
        });
      }
      for (const topic of RECORD_TOPICS) {
        const entries = byTopic[topic];
        if (entries.length > 0) await log.append(topic, entries);
      }
    },
  };
}
