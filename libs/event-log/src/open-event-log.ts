import type { TopicName } from '@app/events';
import type { EventLog } from './event-log';
import { EmbeddedLog } from './embedded/embedded-log';
import type { FsyncPolicy } from './embedded/embedded-options';
import { KafkaLog } from './kafka/kafka-log';
import type { RetentionPolicy, RetentionResult } from './embedded/retention';

export interface OpenEventLogOptions {
  /** `host:port` list or comma-separated string (KAFKA_BROKERS); empty, null or absent selects the embedded log. */
  readonly kafkaBrokers?: string | readonly string[] | null;
  /** Embedded log directory (DATA_DIR); required even with Kafka so the choice can change freely. */
  readonly dataDir: string;
  readonly topicPrefix?: string;
  readonly partitions?: Partial<Record<TopicName, number>>;
  readonly fsync?: FsyncPolicy;
  readonly clientId?: string;
  /** Embedded log only: read, never create or write anything (see EmbeddedLogOptions.readOnly). */
  readonly readOnly?: boolean;
  /** Retention: the embedded log applies it to the topics this process writes; Kafka sets it on topics it creates. */
  readonly retention?: RetentionPolicy & { readonly segmentBytes?: number };
  /** Kafka: replication factor and min.insync.replicas of the topics it creates (not given: the cluster's defaults). */
  readonly replication?: { readonly factor: number; readonly minInsync: number };
  /** Embedded log: told what each retention pass removed. */
  readonly onRetention?: (results: readonly RetentionResult[]) => void;
}

/** Pick the adapter: Kafka when brokers are given, else the embedded on-disk log under dataDir. */
export function openEventLog(options: OpenEventLogOptions): EventLog {
  const raw = options.kafkaBrokers ?? [];
  const brokers = (typeof raw === 'string' ? raw.split(',') : raw)
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length > 0) {
    return new KafkaLog({
      brokers,
      topicPrefix: options.topicPrefix,
      partitions: options.partitions,
      clientId: options.clientId,
      retention: options.retention,
      replicationFactor: options.replication?.factor,
      minInsyncReplicas: options.replication?.minInsync,
    });
  }
  return new EmbeddedLog({
    dataDir: options.dataDir,
    topicPrefix: options.topicPrefix,
    partitions: options.partitions,
    fsync: options.fsync,
    readOnly: options.readOnly,
    segmentBytes: options.retention?.segmentBytes,
    retention:
      options.retention === undefined
        ? undefined
        : { policy: options.retention, onPass: options.onRetention },
  });
}
