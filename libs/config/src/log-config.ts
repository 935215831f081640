import { brokersOf } from './keys/process-keys';
import { readRetention, type LogRetention } from './log-retention';
import type { Reader } from './read-values';

/** Where the event log lives: Kafka when brokers are given, otherwise the embedded log in dataDir. */
export interface LogConfig {
  /** null = the embedded on-disk log. */
  readonly kafkaBrokers: readonly string[] | null;
  readonly dataDir: string;
  /**
   * TOPIC_PREFIX: topics are `<prefix>.books` etc. ('' or absent = plain names), so several
   * deployments or tests can share one broker.
   */
  readonly topicPrefix?: string;
  /** Retention (embedded log: applied by the writer; Kafka: set on the topics it creates); absent = none applied. */
  readonly retention?: LogRetention;
  /** KAFKA_REPLICATION_FACTOR / KAFKA_MIN_INSYNC_REPLICAS of the topics created on Kafka. */
  readonly replication?: { readonly factor: number; readonly minInsync: number };
}

/** The log of a command that writes it: retention always set (LogConfig leaves it to hand-built ones). */
export type WriterLogConfig = Required<LogConfig>;

/** The log of a command that only reads it (replay): no retention of its own to apply. */
export type ReaderLogConfig = Required<Omit<LogConfig, 'retention'>>;

/** KAFKA_BROKERS, TOPIC_PREFIX, the replication settings and DATA_DIR (`dataDir` overrides its default). */
export function readLogLocation(r: Reader, dataDir?: string): ReaderLogConfig {
  const raw = r.text('KAFKA_BROKERS');
  const topicPrefix = r.text('TOPIC_PREFIX')!;
  const factor = r.int('KAFKA_REPLICATION_FACTOR');
  const minInsync = r.int('KAFKA_MIN_INSYNC_REPLICAS');
  if (minInsync > factor)
    r.bad(
      'KAFKA_MIN_INSYNC_REPLICAS',
      `must not exceed KAFKA_REPLICATION_FACTOR (${factor}), got ${minInsync}: no append could be acknowledged`,
    );
  return {
    kafkaBrokers: raw === null ? null : brokersOf(raw),
    dataDir: r.path('DATA_DIR', dataDir)!,
    topicPrefix,
    replication: { factor, minInsync },
  };
}

/** The log of a service process: where it is, and LOG_RETENTION_* / LOG_SEGMENT_BYTES. */
export function readLog(r: Reader, dataDir?: string): WriterLogConfig {
  const location = readLogLocation(r, dataDir);
  return { ...location, retention: readRetention(r) };
}
