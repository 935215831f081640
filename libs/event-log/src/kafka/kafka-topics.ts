import type { Admin, Kafka } from 'kafkajs';
import { TOPICS, topicName, type TopicName } from '@app/events';
import { retry, errorMessage } from '@app/retry';
import { LogError } from '../log-error';
import { DEFAULT_PARTITIONS } from '../topic-partitions';
import type { RetentionPolicy } from '../embedded/retention';
import { describeRetention, topicRetentionEntries } from './kafka-retention';

export interface KafkaTopicsOptions {
  readonly prefix: string;
  readonly partitions?: Partial<Record<TopicName, number>>;
  readonly replicationFactor?: number;
  readonly minInsyncReplicas?: number;
  readonly retention?: RetentionPolicy;
}

/** Side topics (snapshot marks): compacted, segments rolled every 10 minutes so compaction can run. */
const COMPACTED = [
  { name: 'cleanup.policy', value: 'compact' },
  { name: 'segment.ms', value: '600000' },
];

/**
 * Shared topics hold derived data whose readers survive a stale view (a missed deletion makes
 * them read the journal instead): deletions need not outlive compaction by a day, as Kafka's
 * default delete.retention.ms keeps them; ten minutes keeps the topic small for readers.
 */
const SHARED = [...COMPACTED, { name: 'delete.retention.ms', value: '600000' }];

/**
 * An admin call failing with an error kafkajs marks retriable: a partition whose leader is being
 * elected or has just moved (a topic created a moment ago on a cluster, a broker restarted) answers
 * NOT_LEADER or LEADER_NOT_AVAILABLE for a few hundred milliseconds. Up to 8 calls; the pauses are
 * drawn under a ceiling of 200 ms doubling to 2 s, twice the fixed 100 ms ... 1 s there were before,
 * so on average the calls still span about 4.5 s (at most 9 s).
 */
const ADMIN_RETRY = { attempts: 8, initialMs: 200, maxMs: 2_000 };

/** A topic just created, asked for on a broker that does not know it yet: pauses up to 500 ms, for 5 s. */
const CREATE_RETRY = { initialMs: 100, maxMs: 500, withinMs: 5_000 };

/**
 * kafkajs's fetchTopicOffsets throws a TypeError ("Cannot destructure property 'partitions' of
 * 'high.pop(...)'") when the admin's metadata momentarily lacks the topic, which happens while
 * calls for other topics refresh it at once: a replica answering a resume from the stream ledger
 * while its journal reads offsets got unknown_stream for a close it had found a moment before.
 * Marked retriable: the next attempt, on a new admin client, reads fresh metadata.
 */
function emptyAnswer(e: unknown): never {
  if (e instanceof TypeError && e.message.includes("'partitions'"))
    throw Object.assign(new Error(`kafkajs answered no offsets (${e.message})`), { retriable: true });
  throw e;
}

/** Whether kafkajs says a retry can cure this error (its own or that of an error it wraps). */
function retriable(e: unknown): boolean {
  let c: unknown = e;
  for (let depth = 0; depth < 4 && typeof c === 'object' && c !== null; depth++) {
    const err = c as { retriable?: unknown; cause?: unknown; originalError?: unknown };
    if (err.retriable === true) return true;
    c = err.originalError ?? err.cause;
  }
  return false;
}

/**
 * KafkaLog's admin side: its topics made when missing (books, venues, quotes, stream, their snapshot-mark
 * topics, shared topics on demand) with the configured replication, and their offsets, partition
 * counts and retention read. After a failure the admin client is dropped and a new one (and topic
 * check) is made by the next call: the broker may have restarted.
 */
export class KafkaTopics {
  private admin: Admin | null = null;
  private ready: Promise<Admin> | null = null;
  /** Shared topics seen to exist (topics are not deleted under a running service). */
  private readonly known = new Set<string>();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaTopicsOptions,
  ) {}

  /** Physical name of the side topic that indexes snapshot entries of `topic` (compacted). */
  marksTopic(topic: TopicName): string {
    return `${topicName(this.options.prefix, topic)}.snapshots`;
  }

  /** Create the log's missing topics (once per admin client); the admin client to call. */
  ensure(): Promise<Admin> {
    if (this.ready !== null) return this.ready;
    const admin = this.kafka.admin();
    this.admin = admin;
    this.ready = (async () => {
      await admin.connect();
      const existing = new Set(await admin.listTopics());
      const wanted = TOPICS.flatMap((t) => [
        {
          topic: topicName(this.options.prefix, t),
          numPartitions: this.options.partitions?.[t] ?? DEFAULT_PARTITIONS[t],
          configEntries: topicRetentionEntries(t, this.options.retention),
        },
        { topic: this.marksTopic(t), numPartitions: 1, configEntries: COMPACTED },
      ]).filter((t) => !existing.has(t.topic));
      if (wanted.length > 0) await this.create(admin, wanted);
      return admin;
    })().catch(async (e: unknown) => {
      await this.reset(admin);
      throw new LogError('unavailable', `Kafka admin: ${errorMessage(e)}`);
    });
    return this.ready;
  }

  /** Partitions of a topic as the broker's metadata says. */
  partitionCount(name: string): Promise<number> {
    return this.retrying(`Kafka metadata of ${name}`, async (admin) => {
      const meta = await admin.fetchTopicMetadata({ topics: [name] });
      return meta.topics[0]?.partitions.length ?? 0;
    });
  }

  /** The high (next to write) or low (first retained) offsets of a topic, by partition. */
  offsets(name: string, which: 'high' | 'low' = 'high'): Promise<number[]> {
    return this.retrying(`Kafka offsets of ${name}`, async (admin) => {
      const offsets = await admin.fetchTopicOffsets(name).catch(emptyAnswer);
      const out: number[] = new Array<number>(offsets.length).fill(0);
      for (const o of offsets) out[o.partition] = Number(o[which]);
      return out;
    });
  }

  /**
   * One admin call, made again (with a new admin client, so fresh metadata) while it fails with an
   * error kafkajs marks retriable (ADMIN_RETRY); anything else, or the last failure, is thrown. An
   * admin client that cannot even be made is not retried here (ensure's LogError, as it was).
   */
  private async retrying<T>(what: string, call: (admin: Admin) => Promise<T>): Promise<T> {
    try {
      return await retry(
        async () => {
          const admin = await this.ensure();
          try {
            return await call(admin);
          } catch (e) {
            await this.reset(admin);
            throw e;
          }
        },
        { ...ADMIN_RETRY, retryIf: retriable },
      );
    } catch (e) {
      throw e instanceof LogError ? e : new LogError('unavailable', `${what}: ${errorMessage(e)}`);
    }
  }

  /** retention.ms of a topic. */
  async retentionMs(name: string): Promise<number> {
    const admin = await this.ensure();
    try {
      return (await describeRetention(admin, name)).ms;
    } catch (e) {
      throw new LogError('unavailable', `Kafka configs of ${name}: ${errorMessage(e)}`);
    }
  }

  async exists(name: string): Promise<boolean> {
    if (this.known.has(name)) return true;
    const admin = await this.ensure();
    try {
      if ((await admin.listTopics()).includes(name)) this.known.add(name);
    } catch (e) {
      await this.reset(admin);
      throw new LogError('unavailable', `Kafka topics: ${errorMessage(e)}`);
    }
    return this.known.has(name);
  }

  /** Make a shared topic (compacted, one partition) unless it exists. */
  async createShared(name: string): Promise<void> {
    if (await this.exists(name)) return;
    const admin = await this.ensure();
    try {
      await this.create(admin, [{ topic: name, numPartitions: 1, configEntries: SHARED }]);
    } catch (e) {
      await this.reset(admin);
      throw new LogError('unavailable', `Kafka admin: ${errorMessage(e)}`);
    }
    this.known.add(name);
  }

  async close(): Promise<void> {
    if (this.admin !== null) await this.reset(this.admin);
  }

  /**
   * Drop `failed` (the admin client a call failed on) so the next call makes a fresh one. Only that
   * client: calls run concurrently (the journal, the feed, the indexer), and one call's failure must
   * not disconnect the client another call is still using (kafkajs then fails it with
   * "Cannot read properties of null (reading 'topicMetadata')").
   */
  private async reset(failed: Admin): Promise<void> {
    if (this.admin !== failed) return;
    this.admin = null;
    this.ready = null;
    await failed.disconnect().catch(() => undefined);
  }

  /**
   * Create topics with the configured replication factor and min.insync.replicas; a setting not
   * given is the cluster's own (default.replication.factor, min.insync.replicas), not a default of
   * this library: the service always gives both, from its config table.
   */
  private async create(
    admin: Admin,
    wanted: { topic: string; numPartitions: number; configEntries: { name: string; value: string }[] }[],
  ): Promise<void> {
    const { minInsyncReplicas, replicationFactor } = this.options;
    const minInsync =
      minInsyncReplicas === undefined
        ? []
        : [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }];
    const topics = wanted.map((t) => ({
      ...t,
      configEntries: [...t.configEntries, ...minInsync],
      ...(replicationFactor === undefined ? {} : { replicationFactor }),
    }));
    // On a cluster, a broker asked right after the creation may not know the topics yet
    // (UNKNOWN_TOPIC_OR_PARTITION while it catches up with the controller): ask again.
    await retry(
      async () => {
        await admin.createTopics({ waitForLeaders: true, topics });
        await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
      },
      { ...CREATE_RETRY, retryIf: (e) => errorMessage(e).includes('does not host this topic-partition') },
    );
  }
}
