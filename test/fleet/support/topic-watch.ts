import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';

/** One record as the independent reader saw it: where it is, its key and text, when it arrived here. */
export interface Seen {
  readonly partition: number;
  readonly offset: number;
  readonly key: string;
  readonly value: string;
  readonly at: number;
}

/**
 * An independent reader of one topic (plain kafkajs, none of the service's code): every record
 * from the start, kept with the wall time it arrived. What the fleet test checks the service's
 * acknowledgements against.
 */
export class TopicWatch {
  readonly seen: Seen[] = [];
  private consumer: Consumer | null = null;

  constructor(
    private readonly brokers: string,
    readonly topic: string,
  ) {}

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: this.brokers.split(','),
      logLevel: logLevel.NOTHING,
      clientId: 'fleet-test',
    });
    // Back within seconds after a broker is lost (kafkajs's defaults wait up to 30 s for a session).
    const consumer = kafka.consumer({
      groupId: `fleet-watch-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 6_000,
      heartbeatInterval: 1_000,
      retry: { initialRetryTime: 200, maxRetryTime: 1000, retries: 30 },
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: ({ partition, message }) => {
        this.seen.push({
          partition,
          offset: Number(message.offset),
          key: message.key?.toString('utf8') ?? '',
          value: message.value?.toString('utf8') ?? '',
          at: Date.now(),
        });
        return Promise.resolve();
      },
    });
    return this;
  }

  /**
   * Distinct records by position, each with the time it first arrived (a consumer that rejoins
   * after a broker loss reads the topic again from the start).
   */
  records(): Seen[] {
    const byPosition = new Map<string, Seen>();
    for (const s of this.seen) {
      const k = `${s.partition}@${s.offset}`;
      if (!byPosition.has(k)) byPosition.set(k, s);
    }
    return [...byPosition.values()].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  }

  keys(): Set<string> {
    return new Set(this.seen.map((s) => s.key));
  }

  /**
   * Resolve once every record below `ends` (a high watermark per partition) has been read: an
   * exact end for a topic written without transactions, where every offset holds a record. Rejects
   * after `timeoutMs` naming how far each partition got (a reader too slow, not a record missing).
   */
  async reached(ends: readonly number[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = new Map<number, number>();
      for (const s of this.seen) last.set(s.partition, Math.max(last.get(s.partition) ?? -1, s.offset));
      const behind = ends
        .map((end, p) => ({ p, end, at: (last.get(p) ?? -1) + 1 }))
        .filter((x) => x.at < x.end);
      if (behind.length === 0) return;
      if (Date.now() > deadline)
        throw new Error(
          `${this.topic}: the reader did not reach the end in ${timeoutMs} ms: ${behind.map((x) => `partition ${x.p} at ${x.at} of ${x.end}`).join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
  }
}

interface BookLine {
  readonly type: string;
  readonly exchangeId: string;
  readonly symbol: string;
  readonly snapshot: boolean;
  readonly sequence: number;
  readonly epoch?: number;
}

/**
 * Where a book's sequence breaks in topic order, as a reader following docs/events.md sees it: a
 * delta that is not the book's sequence + 1, and is not an exact copy of a record already there (a
 * produce retried after a broker loss may repeat a batch; the fold ignores such copies). A snapshot
 * always starts a new run (a venue taken over, a republish). A delta with an owner epoch belongs to
 * the run of the snapshot with that epoch: one of an earlier epoch is a previous owner's request
 * that landed after the new owner's snapshot, which readers ignore (counted in `stale`); one of any
 * other epoch is a break. Two ingestors writing one book at once would interleave two runs: a break.
 */
export function sequenceBreaks(records: readonly Seen[], stale: string[] = []): string[] {
  const last = new Map<string, { seq: number; epoch: number | undefined }>();
  const texts = new Map<string, Map<number, string>>();
  const breaks: string[] = [];
  for (const r of records) {
    const b = JSON.parse(r.value) as BookLine;
    if (b.type !== 'book') continue;
    const key = `${b.exchangeId}|${b.symbol}`;
    let byseq = texts.get(key);
    if (byseq === undefined) texts.set(key, (byseq = new Map<number, string>()));
    const prev = last.get(key);
    if (b.snapshot || prev === undefined) {
      if (!b.snapshot)
        breaks.push(`${key}: starts with a delta (seq ${b.sequence}) at ${r.partition}@${r.offset}`);
      byseq.clear();
    } else if (b.epoch !== undefined && b.epoch !== prev.epoch) {
      if (prev.epoch !== undefined && b.epoch < prev.epoch) {
        stale.push(`${key}: seq ${b.sequence} of epoch ${b.epoch} at ${r.partition}@${r.offset}`);
        continue;
      }
      breaks.push(
        `${key}: seq ${b.sequence} of epoch ${b.epoch} in a run of epoch ${prev.epoch} at ${r.partition}@${r.offset}`,
      );
    } else if (b.sequence !== prev.seq + 1) {
      if (byseq.get(b.sequence) === r.value) continue;
      breaks.push(`${key}: seq ${b.sequence} after ${prev.seq} at ${r.partition}@${r.offset}`);
    }
    byseq.set(b.sequence, r.value);
    last.set(key, { seq: b.sequence, epoch: b.snapshot || prev === undefined ? b.epoch : prev.epoch });
  }
  return breaks;
}
