import { errorMessage } from '@app/retry';
import type { Kafka, Producer } from 'kafkajs';
import { LogError } from '../log-error';
import { MAX_RECORD_BYTES } from '../record-limits';
import type { SharedEntry, SharedRecord, SharedTopic } from '../shared-topic';
import type { KafkaFetcher } from './kafka-fetch';

/** What KafkaLog lends a shared topic: its client, its fetcher and its admin's topic calls. */
export interface SharedTopicDeps {
  readonly kafka: Kafka;
  readonly fetcher: KafkaFetcher;
  /** Whether the topic exists (readers never create it: a missing topic reads as empty). */
  readonly exists: () => Promise<boolean>;
  /** Create it (compacted, one partition, the log's replication) unless it exists. */
  readonly create: () => Promise<void>;
}

/** Bytes of records per produce request: each request is one batch, under the broker's limit. */
const SEND_BYTES = MAX_RECORD_BYTES;

/**
 * A SharedTopic on Kafka: appends through an idempotent producer of its own (acks from every
 * in-sync replica), reads by offset through the log's KafkaFetcher.
 */
export class KafkaSharedTopic implements SharedTopic {
  private producer: Producer | null = null;
  private created = false;

  constructor(
    readonly name: string,
    private readonly deps: SharedTopicDeps,
  ) {}

  async append(records: readonly SharedRecord[]): Promise<number[]> {
    if (!this.created) {
      await this.deps.create();
      this.created = true;
    }
    const offsets: number[] = [];
    for (const chunk of chunks(records)) {
      try {
        const producer = await this.getProducer();
        const [meta] = await producer.send({
          topic: this.name,
          acks: -1,
          messages: chunk.map((r) => ({ key: r.key, value: r.value, partition: 0 })),
        });
        // kafkajs sends one partition's messages of a request as one batch: offsets are base + rank.
        const base = Number(meta?.baseOffset ?? NaN);
        if (!Number.isFinite(base)) throw new Error('no base offset in the produce answer');
        chunk.forEach((_, i) => offsets.push(base + i));
      } catch (e) {
        await this.close();
        throw new LogError('unavailable', `Kafka produce to ${this.name} failed: ${errorMessage(e)}`);
      }
    }
    return offsets;
  }

  async read(from: number, max: number): Promise<SharedEntry[]> {
    if (!(await this.deps.exists())) return [];
    const got = await this.deps.fetcher.read(this.name, 0, from, max);
    return got.map((e) => ({
      offset: e.offset,
      key: e.key === null ? '' : e.key.toString('utf8'),
      value: e.value,
    }));
  }

  async end(): Promise<number> {
    if (!(await this.deps.exists())) return 0;
    return this.deps.fetcher.end(this.name, 0);
  }

  async close(): Promise<void> {
    const p = this.producer;
    this.producer = null;
    await p?.disconnect().catch(() => undefined);
  }

  private async getProducer(): Promise<Producer> {
    if (this.producer === null) {
      const p = this.deps.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
      });
      await p.connect();
      this.producer = p;
    }
    return this.producer;
  }
}

/** Consecutive records whose keys and values add up to at most SEND_BYTES. */
function* chunks(records: readonly SharedRecord[]): Iterable<SharedRecord[]> {
  let chunk: SharedRecord[] = [];
  let bytes = 0;
  for (const r of records) {
    const size = Buffer.byteLength(r.key, 'utf8') + (r.value?.length ?? 0) + 64;
    if (size > SEND_BYTES) throw new LogError('too_large', `a ${size}-byte record for a shared topic`);
    if (chunk.length > 0 && bytes + size > SEND_BYTES) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(r);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
