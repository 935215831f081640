import type { TopicName } from '@app/events';

/** One entry to append: the log key and the record's JSON text (one events.md line, no newline). */
export interface AppendEntry {
  readonly key: string;
  readonly value: string;
}

/** One entry read back, with its position. */
export interface LogEntry {
  readonly topic: TopicName;
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly value: string;
}

/** Next offset to read per partition, per logical topic: the cache's position vector. */
export type PositionVector = Partial<Record<TopicName, number[]>>;

/**
 * The event-log port (DI token). Adapters: the embedded on-disk log and Kafka.
 * Order is kept per partition; a key always maps to the same partition.
 */
export abstract class EventLog {
  /** Append entries (partitioned by key) and resolve once they are accepted per the adapter's durability policy. */
  abstract append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void>;
  // The remaining members (read from a position, follow the tail, high-water marks, close)
  // are defined by the adapters' owner in this file.
}
