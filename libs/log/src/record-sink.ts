import type { EventRecord } from '@app/events';

/** Where producers (the ingestor, the replay feeder) write validated records. */
export interface RecordSink {
  write(records: readonly EventRecord[]): Promise<void>;
}
