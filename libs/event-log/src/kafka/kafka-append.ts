import { errorMessage } from '@app/retry';
import type { Kafka, Producer } from 'kafkajs';
import type { AppendEntry } from '../event-log';
import { LogError } from '../log-error';
import type { HealthRegistry } from '../log-health';
import { partitionFor } from '../partitioner';
import { MAX_RECORD_BYTES } from '../record-limits';
import { sendAcknowledged } from './kafka-send';

/**
 * Bytes of keys and values per produce request. Kafka's limit (`message.max.bytes`, 1 MB by
 * default) applies to each partition's record batch, so requests are cut at about that size:
 * every batch stays under the broker's limit, and an entry of MAX_RECORD_BYTES goes alone.
 */
const SEND_BYTES = MAX_RECORD_BYTES;
/** Per-record overhead counted against SEND_BYTES (record headers, varints). */
const RECORD_OVERHEAD = 64;

interface Mark {
  readonly key: string;
  readonly value: string;
  readonly partition: 0;
}

/**
 * The write side of KafkaLog: entries partitioned by `partitionFor`, sent in order in requests
 * under the broker's size limit, acks from every in-sync replica. After a failed request the
 * producer is dropped and a new one (a new idempotent producer id) connects on the next append,
 * so a broker restart or an outage of any length ends with the writer writing again. Snapshot
 * marks of `books` follow their entries; marks that could not be sent are kept and sent with the
 * next append (a mark late only makes a rebuild start at an older snapshot).
 */
export class KafkaAppender {
  private producer: Producer | null = null;
  private readonly seen = new Set<string>();
  private pendingMarks: Mark[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly health: HealthRegistry,
  ) {}

  /**
   * Send `entries` to `name` (n partitions); marks to `marksTopic` when it is given. Throws a
   * LogError naming in `appended` the entries of the requests that went through before one failed.
   */
  async append(
    name: string,
    n: number,
    entries: readonly AppendEntry[],
    marksTopic: string | null,
  ): Promise<void> {
    const parts = entries.map((e) => partitionFor(e.key, n));
    const appended: number[] = [];
    const marks: Mark[] = [];
    for (const chunk of chunks(entries)) {
      const meta = await this.send(name, chunk, entries, parts, appended);
      if (marksTopic === null) {
        appended.push(...chunk);
        continue;
      }
      // kafkajs sends each partition's messages, in order, as one batch: offsets are base + rank.
      const base = new Map(meta.map((m) => [m.partition, Number(m.baseOffset)]));
      const rank = new Map<number, number>();
      for (const i of chunk) {
        const e = entries[i]!;
        const p = parts[i]!;
        const r = rank.get(p) ?? 0;
        rank.set(p, r + 1);
        appended.push(i);
        if (e.snapshot !== true && this.seen.has(e.key)) continue;
        this.seen.add(e.key);
        const kind = e.snapshot === true ? 's' : 'f';
        marks.push({
          key: `${kind}|${e.key}`,
          value: JSON.stringify({ p, o: base.get(p)! + r }),
          partition: 0,
        });
      }
    }
    if (marksTopic !== null) await this.sendMarks(marksTopic, marks);
  }

  async close(): Promise<void> {
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = null;
  }

  private async send(
    name: string,
    chunk: readonly number[],
    entries: readonly AppendEntry[],
    parts: readonly number[],
    appended: readonly number[],
  ): Promise<{ partition: number; baseOffset?: string }[]> {
    try {
      const producer = await this.getProducer();
      return await sendAcknowledged(
        producer,
        name,
        chunk.map((i) => ({ key: entries[i]!.key, value: entries[i]!.value, partition: parts[i]! })),
      );
    } catch (e) {
      await this.reset();
      const type =
        (e as { type?: string; cause?: { type?: string } }).type ??
        (e as { cause?: { type?: string } }).cause?.type;
      if (type === 'MESSAGE_TOO_LARGE' && chunk.length === 1)
        throw new LogError(
          'too_large',
          `${name}: the broker refused an entry as too large (${errorMessage(e)})`,
          {
            appended: [...appended],
            rejected: [...chunk],
          },
        );
      throw new LogError('unavailable', `Kafka produce to ${name} failed: ${errorMessage(e)}`, {
        appended: [...appended],
      });
    }
  }

  private async sendMarks(topic: string, marks: Mark[]): Promise<void> {
    const all = this.pendingMarks.length === 0 ? marks : [...this.pendingMarks, ...marks];
    if (all.length === 0) return;
    try {
      const producer = await this.getProducer();
      await sendAcknowledged(producer, topic, all);
      this.pendingMarks = [];
    } catch (e) {
      await this.reset();
      // Entries are in; their marks wait for the next append. Bounded: one per book and snapshot.
      this.pendingMarks = all.slice(-100_000);
      this.health.note(
        `snapshot marks of ${topic} could not be sent (${errorMessage(e)}); kept for the next append`,
      );
    }
  }

  private async getProducer(): Promise<Producer> {
    if (this.producer === null) {
      const p = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
      });
      await p.connect();
      this.producer = p;
    }
    return this.producer;
  }

  private async reset(): Promise<void> {
    const p = this.producer;
    this.producer = null;
    await p?.disconnect().catch(() => undefined);
  }
}

/** Consecutive runs of entry indices whose keys and values add up to at most SEND_BYTES. */
function* chunks(entries: readonly AppendEntry[]): Iterable<number[]> {
  let chunk: number[] = [];
  let bytes = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const size = Buffer.byteLength(e.key, 'utf8') + Buffer.byteLength(e.value, 'utf8') + RECORD_OVERHEAD;
    if (chunk.length > 0 && bytes + size > SEND_BYTES) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(i);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
