import Cluster, { type FetchedPartition } from 'kafkajs/src/cluster';
import { createLogger } from 'kafkajs/src/loggers';
import defaultSocketFactory from 'kafkajs/src/network/socketFactory';
import { retry } from '@app/retry';
import { LogError } from '../log-error';

/** One message read by offset: its key and value as bytes. */
export interface FetchedEntry {
  readonly offset: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

export interface KafkaFetcherOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Bytes asked per fetch at most (the broker still sends a whole first record batch). */
  readonly maxBytes: number;
  /** How long one fetch keeps trying through leader changes and lost connections before 'unavailable' (30 s). */
  readonly retryMs?: number;
}

const READ_COMMITTED = 1;
const silent = (): (() => void) => () => undefined;

/**
 * Reads a partition's entries by offset without a consumer group: kafkajs's own cluster client
 * (what its consumer uses underneath) sends Fetch requests straight to the partition's leader.
 * A consumer has to join a group before its first fetch (a coordinator round trip, a join and a
 * sync: a few hundred ms on one broker, seconds on a loaded cluster), for every ad-hoc read; this
 * connects once per process and then costs one round trip per fetch. kafkajs has no public API
 * for it (no manual assignment), so its internal Cluster is used: kafkajs is pinned (2.2.4), and
 * the calls used are listed in kafkajs-internals.d.ts.
 */
export class KafkaFetcher {
  private readonly cluster: Cluster;
  private connected: Promise<void> | null = null;
  private readonly topics = new Map<string, Promise<void>>();

  constructor(private readonly options: KafkaFetcherOptions) {
    this.cluster = new Cluster({
      logger: createLogger({ level: 0, logCreator: silent }),
      brokers: [...options.brokers],
      clientId: options.clientId,
      connectionTimeout: 3000,
      requestTimeout: 30_000,
      enforceRequestTimeout: true,
      metadataMaxAge: 300_000,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 5 },
      allowAutoTopicCreation: false,
      maxInFlightRequests: null,
      isolationLevel: READ_COMMITTED,
      socketFactory: defaultSocketFactory(),
    });
  }

  /**
   * Entries of `topic`/`partition` from `from` up to its end at the first fetch (the high
   * watermark it reported), at most `max`. Offsets below the log start (gone to retention or
   * compaction) are skipped: the first entry returned may lie after `from`.
   */
  async read(topic: string, partition: number, from: number, max: number): Promise<FetchedEntry[]> {
    const out: FetchedEntry[] = [];
    let end = Number.MAX_SAFE_INTEGER;
    for (let at = from; out.length < max && at < end;) {
      const got = await this.fetchAt(topic, partition, at, max - out.length);
      if (got === 'behind') {
        at = await this.logStart(topic, partition);
        continue;
      }
      end = Math.min(end, got.end);
      let next = at;
      for (const m of got.partition.messages) {
        const offset = Number(m.offset);
        if (offset < at || offset >= end || m.isControlRecord === true) continue;
        if (out.length < max) out.push({ offset, key: m.key, value: m.value });
        next = offset + 1;
      }
      // A batch compaction emptied (kept for its producer's state) shows no record: step over it,
      // as kafkajs's consumer does.
      at = next > at ? next : at + 1;
    }
    return out;
  }

  /** The partition's end: the offset its next record will get. */
  async end(topic: string, partition: number): Promise<number> {
    return this.offset(topic, partition, false);
  }

  async close(): Promise<void> {
    await this.cluster.disconnect().catch(() => undefined);
  }

  /** One fetch at `at`: the partition's answer and the end it reported, or 'behind' the log start. */
  private async fetchAt(
    topic: string,
    partition: number,
    at: number,
    wanted: number,
  ): Promise<{ partition: FetchedPartition; end: number } | 'behind'> {
    // Small reads (an index probe) ask for little: kafkajs decodes the whole answer.
    const maxBytes = Math.min(this.options.maxBytes, Math.max(64 * 1024, wanted * 4096));
    let fetched: { partition: FetchedPartition; end: number } | 'out of range';
    try {
      fetched = await retry(() => this.fetchOnce(topic, partition, at, maxBytes), {
        // Through leader elections and lost connections, for retryMs (30 s) in all.
        initialMs: 100,
        maxMs: 1_000,
        withinMs: this.options.retryMs ?? 30_000,
        // A leader moved, a broker went away: the metadata kept is stale.
        onRetry: () => this.cluster.refreshMetadata().catch(() => undefined),
      });
    } catch (e) {
      const err = e as { message?: string };
      throw new LogError(
        'unavailable',
        `Kafka fetch of ${topic}/${partition}@${at}: ${err.message ?? String(e)}`,
      );
    }
    if (fetched !== 'out of range') return fetched;
    // Below the log start (retention) or past the end: past the end there is nothing to read.
    const start = await this.logStart(topic, partition);
    if (at < start) return 'behind';
    return { partition: { partition, errorCode: 0, highWatermark: String(at), messages: [] }, end: at };
  }

  private async fetchOnce(
    topic: string,
    partition: number,
    at: number,
    maxBytes: number,
  ): Promise<{ partition: FetchedPartition; end: number } | 'out of range'> {
    try {
      await this.topic(topic);
      const leaders = this.cluster.findLeaderForPartitions(topic, [partition]);
      const nodeId = Object.keys(leaders)[0];
      // Not in the metadata kept (a topic just made, a leader being elected): ask again.
      if (nodeId === undefined) throw new Error(`no leader known for ${topic}/${partition}`);
      const broker = await this.cluster.findBroker({ nodeId });
      const { responses } = await broker.fetch({
        isolationLevel: READ_COMMITTED,
        maxWaitTime: 0,
        minBytes: 1,
        maxBytes,
        topics: [{ topic, partitions: [{ partition, fetchOffset: String(at), maxBytes }] }],
      });
      const got = responses[0]?.partitions.find((p) => p.partition === partition);
      if (got === undefined) throw new LogError('unavailable', `no fetch answer for ${topic}/${partition}`);
      const stable = Number(got.lastStableOffset ?? -1);
      const end = stable >= 0 ? Math.min(stable, Number(got.highWatermark)) : Number(got.highWatermark);
      return { partition: got, end };
    } catch (e) {
      if ((e as { name?: string }).name === 'KafkaJSOffsetOutOfRange') return 'out of range';
      throw e;
    }
  }

  /** The first offset the partition still holds (its log start offset). */
  private logStart(topic: string, partition: number): Promise<number> {
    return this.offset(topic, partition, true);
  }

  private async offset(topic: string, partition: number, first: boolean): Promise<number> {
    try {
      await this.topic(topic);
      const [t] = await this.cluster.fetchTopicsOffset([
        { topic, partitions: [{ partition }], fromBeginning: first },
      ]);
      return Number(t?.partitions.find((p) => p.partition === partition)?.offset ?? 0);
    } catch (e) {
      await this.cluster.refreshMetadata().catch(() => undefined);
      throw new LogError('unavailable', `Kafka offsets of ${topic}/${partition}: ${(e as Error).message}`);
    }
  }

  /** Connect once, and add a topic to the metadata kept (refreshed when a leader moved). */
  private topic(topic: string): Promise<void> {
    this.connected ??= this.cluster.connect().catch((e: unknown) => {
      this.connected = null;
      throw e;
    });
    let known = this.topics.get(topic);
    if (known === undefined) {
      known = this.connected
        .then(() => this.cluster.addTargetTopic(topic))
        .catch((e: unknown) => {
          this.topics.delete(topic);
          throw e;
        });
      this.topics.set(topic, known);
    }
    return known;
  }
}
