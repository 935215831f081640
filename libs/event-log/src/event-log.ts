import type { TopicName } from '@app/events';
import { HEALTHY, type LogHealth } from './log-health';
import type { SharedTopic } from './shared-topic';

/**
 * Topics folded from the latest snapshot of each key: only their entries are indexed for
 * `rebuildStarts` (snapshot marks and the first entry of each key). The tlog's snapshots are its
 * origins' prefixes (docs/audit.md "Retention"). Other topics are read from
 * their start (venues) or by key (quotes), so marking them would only grow an index without use
 * (one mark per requestId for quotes).
 */
export const SNAPSHOT_TOPICS: readonly TopicName[] = ['books', 'tlog'];

/** One entry to append: the log key and the record's JSON text (one events.md line, no newline). */
export interface AppendEntry {
  readonly key: string;
  readonly value: string;
  /**
   * True when this entry alone rebuilds its key's state (a full book snapshot). Adapters index
   * such entries so a rebuild starts from the latest one instead of the topic's beginning.
   */
  readonly snapshot?: boolean;
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

/** Where to read one partition from: `offset` is the next offset to read. */
export interface LogPosition {
  readonly topic: TopicName;
  readonly partition: number;
  readonly offset: number;
}

export interface FollowOptions {
  /** Aborting ends the iteration cleanly (the loop simply finishes). */
  readonly signal: AbortSignal;
  /** Upper bound on entries per yielded batch (adapters may yield fewer). */
  readonly maxBatch?: number;
}

/**
 * The event-log port (DI token). Adapters: the embedded on-disk log and Kafka.
 * Order is kept per partition; a key always maps to the same partition (`partitionFor`), and
 * offsets within a partition only grow.
 */
export abstract class EventLog {
  /** Number of partitions of a topic (creating the topic with the configured count if missing). */
  abstract partitions(topic: TopicName): Promise<number>;
  /** Append entries (partitioned by key) and resolve once they are accepted per the adapter's durability policy. */
  abstract append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void>;
  /** Entries of one partition from `fromOffset` up to the end as of the call, at most `maxEntries`. */
  abstract read(
    topic: TopicName,
    partition: number,
    fromOffset: number,
    maxEntries?: number,
  ): Promise<LogEntry[]>;
  /**
   * Follow several partitions from the given positions: yields batches as entries are appended,
   * each batch in partition order, until `signal` aborts. Throws when the log becomes unreadable
   * (e.g. the Kafka client gave up); the caller resumes with a fresh follow from its own positions.
   */
  abstract follow(from: readonly LogPosition[], options: FollowOptions): AsyncIterable<LogEntry[]>;
  /** Next offset to be written, per partition (index = partition). */
  abstract highWatermarks(topic: TopicName): Promise<number[]>;
  /**
   * Per partition, the offset a rebuild must start from so that folding from there up to `upTo`
   * gives every key the same state as folding from the beginning: the latest snapshot entry of
   * each key before `upTo` (or the key's first entry when it has no snapshot). Topics outside
   * SNAPSHOT_TOPICS are not indexed: their rebuild starts at their first offset.
   */
  abstract rebuildStarts(topic: TopicName, upTo: readonly number[]): Promise<number[]>;
  /**
   * Per partition, the retention horizon: the first offset from which the log holds every entry
   * (0 when nothing was removed). Below it the embedded log keeps only each book's latest snapshot
   * and what follows it; Kafka keeps nothing (its low watermark). Positions below it cannot be
   * rebuilt: asOf and replay refuse them, naming the horizon.
   */
  retainedFrom(topic: TopicName): Promise<number[]> {
    return this.partitions(topic).then((n) => Array.from({ length: n }, () => 0));
  }
  /**
   * Why the log's own retention could remove a book's only snapshot before the producer writes a
   * new one (every `snapshotEveryMs`), or null. The embedded log never does (it keeps each book's
   * latest snapshot); Kafka does when a topic's retention.ms is short: the service checks at start.
   */
  snapshotRetentionProblem(_snapshotEveryMs: number): Promise<string | null> {
    return Promise.resolve(null);
  }
  /**
   * What the log has found wrong with its data since it was opened: damaged stretches readers
   * skipped (named and counted) and other named problems. Adapters that find none keep the default.
   */
  health(): LogHealth {
    return HEALTHY;
  }
  /**
   * A shared topic beside `topic` (`<topic>.<suffix>`, compacted, one partition, created on first
   * use) for data derived from it that every process reading this log can use, wherever it runs:
   * Kafka's. Null for a log without one (the embedded log: derived data lives beside its files).
   */
  sharedTopic(_topic: TopicName, _suffix: string): SharedTopic | null {
    return null;
  }
  /**
   * Resolves once every entry whose append resolved before the call survives a crash of this
   * machine: Kafka's appends already waited for the in-sync replicas; the embedded log's are
   * fdatasync'd here unless its fsync policy did it per append. A checkpoint covers only such
   * entries (docs/audit.md "The log"): a torn tail cut after a crash would fork its tree.
   */
  durable(): Promise<void> {
    return Promise.resolve();
  }
  /** Flush, release locks and connections. */
  abstract close(): Promise<void>;
}
