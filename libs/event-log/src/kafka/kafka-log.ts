import { errorMessage } from '@app/retry';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { topicName, type TopicName } from '@app/events';
import {
  EventLog,
  SNAPSHOT_TOPICS,
  type AppendEntry,
  type FollowOptions,
  type LogEntry,
  type LogPosition,
} from '../event-log';
import { AsyncQueue } from '../async-queue';
import { LogError } from '../log-error';
import { HealthRegistry, type LogHealth, type ProblemSink } from '../log-health';
import { checkEntries } from '../record-limits';
import { rebuildStart, KIND_FIRST, KIND_SNAPSHOT, type SnapshotMark } from '../embedded/snapshot-index';
import { KafkaAppender } from './kafka-append';
import { KafkaFetcher, type FetchedEntry } from './kafka-fetch';
import { KafkaGatedWriter, type GatedWriter } from './kafka-gated';
import { KafkaSharedTopic } from './kafka-shared-topic';
import type { SharedTopic } from '../shared-topic';
import { retentionProblem } from './kafka-retention';
import { KafkaTopics } from './kafka-topics';
import type { RetentionPolicy } from '../embedded/retention';

export interface KafkaLogOptions {
  readonly brokers: readonly string[];
  readonly topicPrefix?: string;
  /** Partition counts used when a topic is created (an existing topic keeps its own). */
  readonly partitions?: Partial<Record<TopicName, number>>;
  readonly clientId?: string;
  /** Replicas of each topic this adapter creates (not given: the cluster's default.replication.factor). */
  readonly replicationFactor?: number;
  /** min.insync.replicas of the topics it creates: acks=-1 appends need this many replicas (not given: the cluster's). */
  readonly minInsyncReplicas?: number;
  /** Retries of a follow's consumer before it gives up and `follow` throws (default 5). */
  readonly readerRetries?: number;
  /** kafkajs's own log output; off by default (errors surface through this adapter). */
  readonly clientLogLevel?: logLevel;
  /** Fetch sizing of follows (see DEFAULT_FETCH for why the defaults are what they are). */
  readonly fetch?: Partial<KafkaFetchOptions>;
  /** Where problems are said when first met (default: a JSON line on stderr). */
  readonly onProblem?: ProblemSink;
  /** retention.ms / retention.bytes of the books and quotes topics this adapter creates. */
  readonly retention?: RetentionPolicy;
}

/** kafkajs consumer fetch settings used by `follow`. */
export interface KafkaFetchOptions {
  readonly maxBytesPerPartition: number;
  readonly maxBytes: number;
  readonly maxWaitTimeInMs: number;
}

/**
 * kafkajs decodes a whole fetch response before it hands out the first batch. With 16 MiB per
 * partition (64 MiB responses) a cold follow of 200,000 records waited ~340 ms for its first
 * batch; with 1 MiB / 8 MiB it waits ~35 ms, the whole fold is as fast or faster, and the broker
 * prepares the next response while this process folds the last one.
 */
export const DEFAULT_FETCH: KafkaFetchOptions = {
  maxBytesPerPartition: 1024 * 1024,
  maxBytes: 8 * 1024 * 1024,
  maxWaitTimeInMs: 100,
};

interface Sub {
  readonly topic: TopicName;
  readonly name: string;
  readonly partition: number;
  next: number;
}

/**
 * The event log on Kafka through kafkajs. Keys are partitioned by `partitionFor` (Kafka's Java
 * default), so the same key lands on the same partition number as in the embedded log. A follow
 * uses a throw-away consumer group and `seek` (kafkajs has no manual assign); it keeps its own
 * positions and re-seeks after every group join, so a broker restart resumes exactly where it
 * stopped. Reads by offset (`read`, the snapshot marks) fetch from the leader without a group
 * (KafkaFetcher).
 */
export class KafkaLog extends EventLog {
  private readonly kafka: Kafka;
  private readonly prefix: string;
  private readonly topics: KafkaTopics;
  private readonly counts = new Map<TopicName, number>();
  private readonly consumers = new Set<Consumer>();
  private readonly registry: HealthRegistry;
  private readonly appender: KafkaAppender;
  private readonly fetcher: KafkaFetcher;
  private readonly shared = new Map<string, KafkaSharedTopic>();
  private closed = false;

  constructor(private readonly options: KafkaLogOptions) {
    super();
    if (options.brokers.length === 0)
      throw new LogError('bad_argument', 'KafkaLog needs at least one broker');
    this.prefix = options.topicPrefix ?? '';
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'route-service',
      brokers: [...options.brokers],
      logLevel: options.clientLogLevel ?? logLevel.NOTHING,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 10 },
    });
    this.registry = new HealthRegistry(options.onProblem);
    this.topics = new KafkaTopics(this.kafka, {
      prefix: this.prefix,
      partitions: options.partitions,
      replicationFactor: options.replicationFactor,
      minInsyncReplicas: options.minInsyncReplicas,
      retention: options.retention,
    });
    this.appender = new KafkaAppender(this.kafka, this.registry);
    this.fetcher = new KafkaFetcher({
      brokers: options.brokers,
      clientId: options.clientId ?? 'route-service',
      maxBytes: options.fetch?.maxBytesPerPartition ?? DEFAULT_FETCH.maxBytesPerPartition,
    });
  }

  /** Physical name of the side topic that indexes snapshot entries of `topic` (compacted). */
  marksTopic(topic: TopicName): string {
    return this.topics.marksTopic(topic);
  }

  async partitions(topic: TopicName): Promise<number> {
    let n = this.counts.get(topic);
    if (n === undefined) {
      n = await this.topics.partitionCount(topicName(this.prefix, topic));
      if (n < 1)
        throw new LogError('unavailable', `topic ${topicName(this.prefix, topic)} has no partitions`);
      this.counts.set(topic, n);
    }
    return n;
  }

  /**
   * Append in requests under the broker's size limit; an entry over MAX_RECORD_BYTES refuses the
   * batch before anything is sent ('too_large', the same limit as the embedded log). A failure
   * names in `appended` the entries already acknowledged; a retry of the rest after an outage
   * may repeat the entries of the request that failed (Kafka gives no per-partition outcome), which
   * the fold ignores by sequence and the journal by requestId.
   */
  async append(topic: TopicName, entries: readonly AppendEntry[]): Promise<void> {
    this.open();
    if (entries.length === 0) return;
    checkEntries(topic, entries);
    let n: number;
    try {
      n = await this.partitions(topic);
    } catch (e) {
      throw e instanceof LogError
        ? e
        : new LogError('unavailable', `Kafka metadata of ${topic}: ${errorMessage(e)}`);
    }
    const marks = SNAPSHOT_TOPICS.includes(topic) ? this.marksTopic(topic) : null;
    await this.appender.append(topicName(this.prefix, topic), n, entries, marks);
  }

  /**
   * A writer with its own client whose sending stops at once when it is shut, retries of an append
   * already under way included (kafka-gated.ts): an ingestor group's shard slot writes through one,
   * so an ingestor that gives a slot up sends nothing for it after that moment. `may`, asked before
   * each request is sent, refuses it too while false (the shard group's lease).
   */
  gatedWriter(may?: () => boolean): GatedWriter {
    this.open();
    return new KafkaGatedWriter({
      brokers: this.options.brokers,
      clientId: `${this.options.clientId ?? 'route-service'}-slot`,
      health: this.registry,
      partitions: (t) => this.partitions(t),
      physical: (t) => topicName(this.prefix, t),
      marksTopic: (t) => this.marksTopic(t),
      may,
    });
  }

  override health(): LogHealth {
    return this.registry.snapshot();
  }

  /**
   * Entries by offset through KafkaFetcher: Fetch requests to the partition's leader on one
   * connection per process, no consumer group (a group join per read cost a few hundred ms on one
   * broker and seconds on a loaded cluster; `replay quote` makes dozens of reads).
   */
  async read(
    topic: TopicName,
    partition: number,
    fromOffset: number,
    maxEntries = Number.MAX_SAFE_INTEGER,
  ): Promise<LogEntry[]> {
    this.open();
    const n = await this.partitions(topic);
    if (!Number.isInteger(partition) || partition < 0 || partition >= n)
      throw new LogError('bad_argument', `${topic} has no partition ${partition}`);
    if (maxEntries <= 0) return [];
    const got = await this.fetcher.read(topicName(this.prefix, topic), partition, fromOffset, maxEntries);
    return got.map((e) => ({ topic, partition, ...text(e) }));
  }

  async *follow(from: readonly LogPosition[], options: FollowOptions): AsyncIterable<LogEntry[]> {
    this.open();
    await this.topics.ensure();
    const subs = from.map((p) => ({
      topic: p.topic,
      name: topicName(this.prefix, p.topic),
      partition: p.partition,
      next: p.offset,
    }));
    yield* this.consume(subs, options.signal);
  }

  async highWatermarks(topic: TopicName): Promise<number[]> {
    return this.topics.offsets(topicName(this.prefix, topic));
  }

  /** The broker's low watermarks: Kafka's retention keeps nothing below them. */
  override async retainedFrom(topic: TopicName): Promise<number[]> {
    return this.topics.offsets(topicName(this.prefix, topic), 'low');
  }

  override async snapshotRetentionProblem(snapshotEveryMs: number): Promise<string | null> {
    const name = topicName(this.prefix, 'books');
    return retentionProblem(name, await this.topics.retentionMs(name), snapshotEveryMs);
  }

  async rebuildStarts(topic: TopicName, upTo: readonly number[]): Promise<number[]> {
    const n = await this.partitions(topic);
    if (upTo.length !== n)
      throw new LogError('bad_argument', `rebuildStarts(${topic}) needs ${n} offsets, got ${upTo.length}`);
    if (!SNAPSHOT_TOPICS.includes(topic)) return upTo.map(() => 0);
    const name = this.marksTopic(topic);
    const end = (await this.topics.offsets(name))[0] ?? 0;
    const marks: SnapshotMark[][] = Array.from({ length: n }, () => []);
    for (let at = 0; at < end;) {
      const batch = await this.fetcher.read(name, 0, at, 8192);
      if (batch.length === 0) break;
      for (const e of batch) {
        const m = text(e);
        const bar = m.key.indexOf('|');
        const mark = JSON.parse(m.value) as { p: number; o: number };
        marks[mark.p]?.push({
          key: m.key.slice(bar + 1),
          offset: mark.o,
          kind: m.key.startsWith('s|') ? KIND_SNAPSHOT : KIND_FIRST,
        });
      }
      at = batch[batch.length - 1]!.offset + 1;
    }
    // Compaction keeps only the latest mark per key, which may lie past `upTo`: a rebuild from
    // Kafka therefore targets the current end (what the feed needs), not a historical position.
    return upTo.map((u, p) => {
      const start = rebuildStart(marks[p]!, Number.MAX_SAFE_INTEGER);
      return start === Number.MAX_SAFE_INTEGER ? u : start;
    });
  }

  /** `<prefix>.<topic>.<suffix>`: compacted, one partition, this log's replication (created by the first append). */
  override sharedTopic(topic: TopicName, suffix: string): SharedTopic {
    const name = `${topicName(this.prefix, topic)}.${suffix}`;
    let t = this.shared.get(name);
    if (t === undefined) {
      t = new KafkaSharedTopic(name, {
        kafka: this.kafka,
        fetcher: this.fetcher,
        exists: () => this.topics.exists(name),
        create: () => this.topics.createShared(name),
      });
      this.shared.set(name, t);
    }
    return t;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.shared.values()].map((t) => t.close()));
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    await this.fetcher.close();
    await this.appender.close();
    await this.topics.close();
  }

  private open(): void {
    if (this.closed) throw new LogError('closed', 'the event log is closed');
  }

  private async *consume(subs: Sub[], signal: AbortSignal): AsyncIterable<LogEntry[]> {
    const byKey = new Map(subs.map((s) => [`${s.name}/${s.partition}`, s]));
    const names = [...new Set(subs.map((s) => s.name))];
    const queue = new AsyncQueue<LogEntry[]>(8);
    const consumer = this.kafka.consumer({
      groupId: `${this.prefix || 'route'}.reader.${randomUUID()}`,
      ...DEFAULT_FETCH,
      ...this.options.fetch,
      allowAutoTopicCreation: false,
      // We resume from our own positions with a fresh follow; kafkajs must not restart on its own.
      retry: {
        initialRetryTime: 200,
        maxRetryTime: 2000,
        retries: this.options.readerRetries ?? 5,
        restartOnFailure: () => Promise.resolve(false),
      },
    });
    this.consumers.add(consumer);
    const seekAll = (): void => {
      for (const s of subs) consumer.seek({ topic: s.name, partition: s.partition, offset: String(s.next) });
    };
    const pauseOthers = async (): Promise<void> => {
      for (const name of names) {
        const all = (await this.topics.offsets(name)).map((_, p) => p);
        const others = all.filter((p) => !byKey.has(`${name}/${p}`));
        if (others.length > 0) consumer.pause([{ topic: name, partitions: others }]);
      }
    };
    consumer.on(consumer.events.GROUP_JOIN, () => seekAll());
    consumer.on(consumer.events.CRASH, (e) =>
      queue.fail(new LogError('unavailable', `Kafka consumer stopped: ${String(e.payload.error)}`)),
    );
    const onAbort = (): void => queue.end();
    signal.addEventListener('abort', onAbort);
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: names, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          const s = byKey.get(`${batch.topic}/${batch.partition}`);
          if (s === undefined) return;
          const out: LogEntry[] = [];
          const { topic, partition } = s;
          for (const m of batch.messages) {
            const offset = Number(m.offset);
            // Guard against re-delivery after a rejoin: positions only move forward.
            if (offset < s.next) continue;
            const key = m.key === null ? '' : m.key.toString('utf8');
            const value = m.value === null ? '' : m.value.toString('utf8');
            out.push({ topic, partition, offset, key, value });
            s.next = offset + 1;
          }
          if (out.length > 0) await queue.push(out);
        },
      });
      seekAll();
      await pauseOthers();
      if (signal.aborted) return;
      for (;;) {
        const batch = await queue.next();
        if (batch === null) return;
        yield batch;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      queue.end();
      this.consumers.delete(consumer);
      await consumer.disconnect().catch(() => undefined);
    }
  }
}

/** An entry's key and value as the log's text (absent ones as ''). */
function text(e: FetchedEntry): { offset: number; key: string; value: string } {
  return {
    offset: e.offset,
    key: e.key === null ? '' : e.key.toString('utf8'),
    value: e.value === null ? '' : e.value.toString('utf8'),
  };
}
