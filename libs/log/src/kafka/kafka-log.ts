import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer } from 'kafkajs';
import { TOPICS, topicName, type TopicName } from '@app/events';
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
import { describeRetention, retentionProblem, topicRetentionEntries } from './kafka-retention';
import type { RetentionPolicy } from '../embedded/retention';

export interface KafkaLogOptions {
  readonly brokers: readonly string[];
  readonly topicPrefix?: string;
  /** Partition counts used when a topic is created (an existing topic keeps its own). */
  readonly partitions?: Partial<Record<TopicName, number>>;
  readonly clientId?: string;
  /** Replicas of each topic this adapter creates (default 1: a single broker). */
  readonly replicationFactor?: number;
  /** min.insync.replicas of the topics it creates: acks=-1 appends need this many replicas (default 1). */
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

const DEFAULT_PARTITIONS: Readonly<Record<TopicName, number>> = { books: 8, venues: 4, quotes: 4, stream: 4 };

interface Sub {
  readonly topic: TopicName;
  readonly name: string;
  readonly partition: number;
  next: number;
}

/**
 * The event log on Kafka through kafkajs. Keys are partitioned by `partitionFor` (Kafka's Java
 * default), so the same key lands on the same partition number as in the embedded log. Reads
 * use a throw-away consumer group per follow and `seek` (kafkajs has no manual assign); the
 * follow keeps its own positions and re-seeks after every group join, so a broker restart
 * resumes exactly where it stopped.
 */
export class KafkaLog extends EventLog {
  private readonly kafka: Kafka;
  private readonly prefix: string;
  private admin: Admin | null = null;
  private ready: Promise<void> | null = null;
  private readonly counts = new Map<TopicName, number>();
  private readonly consumers = new Set<Consumer>();
  private readonly registry: HealthRegistry;
  private readonly appender: KafkaAppender;
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
    this.appender = new KafkaAppender(this.kafka, this.registry);
  }

  /** Physical name of the side topic that indexes snapshot entries of `topic` (compacted). */
  marksTopic(topic: TopicName): string {
    return `${topicName(this.prefix, topic)}.snapshots`;
  }

  async partitions(topic: TopicName): Promise<number> {
    await this.ensureTopics();
    let n = this.counts.get(topic);
    if (n === undefined) {
      try {
        const meta = await this.admin!.fetchTopicMetadata({ topics: [topicName(this.prefix, topic)] });
        n = meta.topics[0]?.partitions.length ?? 0;
      } catch (e) {
        await this.resetAdmin();
        throw new LogError('unavailable', `Kafka metadata of ${topic}: ${message(e)}`);
      }
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
        : new LogError('unavailable', `Kafka metadata of ${topic}: ${message(e)}`);
    }
    const marks = SNAPSHOT_TOPICS.includes(topic) ? this.marksTopic(topic) : null;
    await this.appender.append(topicName(this.prefix, topic), n, entries, marks);
  }

  override health(): LogHealth {
    return this.registry.snapshot();
  }

  async read(
    topic: TopicName,
    partition: number,
    fromOffset: number,
    maxEntries = Number.MAX_SAFE_INTEGER,
  ): Promise<LogEntry[]> {
    const end = (await this.highWatermarks(topic))[partition];
    if (end === undefined) throw new LogError('bad_argument', `${topic} has no partition ${partition}`);
    const out: LogEntry[] = [];
    if (fromOffset >= end) return out;
    const ac = new AbortController();
    for await (const batch of this.follow([{ topic, partition, offset: fromOffset }], {
      signal: ac.signal,
    })) {
      for (const e of batch) if (e.offset < end && out.length < maxEntries) out.push(e);
      if (out.length >= maxEntries || batch[batch.length - 1]!.offset >= end - 1) ac.abort();
    }
    return out;
  }

  async *follow(from: readonly LogPosition[], options: FollowOptions): AsyncIterable<LogEntry[]> {
    this.open();
    await this.ensureTopics();
    const subs = from.map((p) => ({
      topic: p.topic,
      name: topicName(this.prefix, p.topic),
      partition: p.partition,
      next: p.offset,
    }));
    yield* this.consume(subs, options.signal);
  }

  async highWatermarks(topic: TopicName): Promise<number[]> {
    await this.ensureTopics();
    return this.offsetsOf(topicName(this.prefix, topic));
  }

  /** The broker's low watermarks: Kafka's retention keeps nothing below them. */
  override async retainedFrom(topic: TopicName): Promise<number[]> {
    await this.ensureTopics();
    return this.offsetsOf(topicName(this.prefix, topic), 'low');
  }

  override async snapshotRetentionProblem(snapshotEveryMs: number): Promise<string | null> {
    await this.ensureTopics();
    const name = topicName(this.prefix, 'books');
    try {
      return retentionProblem(name, (await describeRetention(this.admin!, name)).ms, snapshotEveryMs);
    } catch (e) {
      throw new LogError('unavailable', `Kafka configs of ${name}: ${message(e)}`);
    }
  }

  async rebuildStarts(topic: TopicName, upTo: readonly number[]): Promise<number[]> {
    const n = await this.partitions(topic);
    if (upTo.length !== n)
      throw new LogError('bad_argument', `rebuildStarts(${topic}) needs ${n} offsets, got ${upTo.length}`);
    if (!SNAPSHOT_TOPICS.includes(topic)) return upTo.map(() => 0);
    const name = this.marksTopic(topic);
    const end = (await this.offsetsOf(name))[0] ?? 0;
    const marks: SnapshotMark[][] = Array.from({ length: n }, () => []);
    if (end > 0) {
      const ac = new AbortController();
      const subs: Sub[] = [{ topic, name, partition: 0, next: 0 }];
      for await (const batch of this.consume(subs, ac.signal)) {
        for (const m of batch) {
          const bar = m.key.indexOf('|');
          const at = JSON.parse(m.value) as { p: number; o: number };
          marks[at.p]?.push({
            key: m.key.slice(bar + 1),
            offset: at.o,
            kind: m.key.startsWith('s|') ? KIND_SNAPSHOT : KIND_FIRST,
          });
        }
        if (batch[batch.length - 1]!.offset >= end - 1) ac.abort();
      }
    }
    // Compaction keeps only the latest mark per key, which may lie past `upTo`: a rebuild from
    // Kafka therefore targets the current end (what the feed needs), not a historical position.
    return upTo.map((u, p) => {
      const start = rebuildStart(marks[p]!, Number.MAX_SAFE_INTEGER);
      return start === Number.MAX_SAFE_INTEGER ? u : start;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    await this.appender.close();
    await this.admin?.disconnect().catch(() => undefined);
  }

  private open(): void {
    if (this.closed) throw new LogError('closed', 'the event log is closed');
  }

  private async offsetsOf(name: string, which: 'high' | 'low' = 'high'): Promise<number[]> {
    try {
      const offsets = await this.admin!.fetchTopicOffsets(name);
      const out: number[] = new Array<number>(offsets.length).fill(0);
      for (const o of offsets) out[o.partition] = Number(o[which]);
      return out;
    } catch (e) {
      // A fresh admin client (and topic check) on the next call: the broker may have restarted.
      await this.resetAdmin();
      throw new LogError('unavailable', `Kafka offsets of ${name}: ${message(e)}`);
    }
  }

  private async resetAdmin(): Promise<void> {
    const admin = this.admin;
    this.admin = null;
    this.ready = null;
    await admin?.disconnect().catch(() => undefined);
  }

  /** Create missing topics (books, venues, quotes and their compacted snapshot-mark topics). */
  private ensureTopics(): Promise<void> {
    this.ready ??= (async () => {
      const admin = this.kafka.admin();
      this.admin = admin;
      await admin.connect();
      const existing = new Set(await admin.listTopics());
      const wanted = TOPICS.flatMap((t) => [
        {
          topic: topicName(this.prefix, t),
          numPartitions: this.options.partitions?.[t] ?? DEFAULT_PARTITIONS[t],
          configEntries: topicRetentionEntries(t, this.options.retention),
        },
        {
          topic: this.marksTopic(t),
          numPartitions: 1,
          configEntries: [
            { name: 'cleanup.policy', value: 'compact' },
            { name: 'segment.ms', value: '600000' },
          ],
        },
      ]).filter((t) => !existing.has(t.topic));
      if (wanted.length > 0) {
        const minInsync = [
          { name: 'min.insync.replicas', value: String(this.options.minInsyncReplicas ?? 1) },
        ];
        const topics = wanted.map((t) => ({
          ...t,
          configEntries: [...t.configEntries, ...minInsync],
          replicationFactor: this.options.replicationFactor ?? 1,
        }));
        // On a cluster, a broker asked right after the creation may not know the topics yet
        // (UNKNOWN_TOPIC_OR_PARTITION while it catches up with the controller): ask again.
        for (let attempt = 0; ; attempt++) {
          try {
            await admin.createTopics({ waitForLeaders: true, topics });
            await admin.fetchTopicMetadata({ topics: topics.map((t) => t.topic) });
            break;
          } catch (e) {
            if (attempt >= 20 || !message(e).includes('does not host this topic-partition')) throw e;
            await new Promise((r) => setTimeout(r, 250));
          }
        }
      }
    })().catch(async (e: unknown) => {
      await this.resetAdmin();
      throw new LogError('unavailable', `Kafka admin: ${message(e)}`);
    });
    return this.ready;
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
        const all = (await this.offsetsOf(name)).map((_, p) => p);
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

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
