/**
 * Kafka fold throughput: the same topic folded through kafkajs (our adapter) and, with
 * `--compare-kafka-clients`, through @platformatic/kafka 1.x (installed on demand, see optional-client.ts).
 */
import { randomUUID } from 'node:crypto';
import { BookCache } from '@app/books';
import { parseRecordLine } from '@app/events';
import { DEFAULT_FETCH, KafkaLog } from '@app/event-log';
import { createBookFeed } from '@app/live-feed';
import type { BenchRow } from './bench-row';
import { bookRecords, toEntries, type StreamSpec } from '@app/synth';
import { requireOptional } from './optional-client';

/** The version the figures in BENCHMARKS.md were measured with. */
const PLATFORMATIC_KAFKA = '1.35.0';

export function kafkaLogForBench(
  brokers: string,
  topicPrefix = `bench-${randomUUID().slice(0, 8)}`,
): KafkaLog {
  return new KafkaLog({
    brokers: brokers.split(','),
    topicPrefix,
    partitions: { books: 4, venues: 1, quotes: 1 },
  });
}

interface PlatformaticMessage {
  readonly value: string;
}
interface PlatformaticStream {
  on(event: 'data', listener: (m: PlatformaticMessage) => void): this;
  on(event: 'error', listener: (e: Error) => void): this;
  close(): Promise<void>;
}
interface PlatformaticConsumer {
  consume(options: Record<string, unknown>): Promise<PlatformaticStream>;
  close(force?: boolean): Promise<void>;
}

/** Produce `records` book records (10 levels) to `log`'s books topic; returns records/s. */
async function produce(log: KafkaLog, records: number): Promise<number> {
  const spec: StreamSpec = {
    venues: 10,
    symbolsPerVenue: 10,
    bookRecords: records,
    levels: 10,
    snapshotEvery: 1000,
    startAt: 1_786_000_000_000,
  };
  // Generated in here so the entries are garbage before the consumers run (not their heap to trace).
  const entries = toEntries([...bookRecords(spec)]);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < entries.length; i += 10_000) await log.append('books', entries.slice(i, i + 10_000));
  return records / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/** @platformatic/kafka 1.x: a raw consumer from the earliest offsets, same parse + fold; records/s. */
async function foldPlatformatic(brokers: string, topic: string, records: number): Promise<number> {
  const { Consumer, stringDeserializers } = requireOptional<{
    Consumer: new (o: Record<string, unknown>) => PlatformaticConsumer;
    stringDeserializers: unknown;
  }>('@platformatic/kafka', PLATFORMATIC_KAFKA);
  const consumer = new Consumer({
    groupId: `${topic}-pk-${randomUUID().slice(0, 8)}`,
    clientId: 'bench',
    bootstrapBrokers: brokers.split(','),
    deserializers: stringDeserializers,
  });
  const cache = new BookCache();
  const t0 = process.hrtime.bigint();
  // Same fetch sizing as our kafkajs follow (DEFAULT_FETCH), so the comparison is of the clients.
  const stream = await consumer.consume({
    topics: [topic],
    mode: 'earliest',
    autocommit: false,
    maxWaitTime: DEFAULT_FETCH.maxWaitTimeInMs,
    maxBytes: DEFAULT_FETCH.maxBytes,
    maxBytesPerPartition: DEFAULT_FETCH.maxBytesPerPartition,
  });
  let n = 0;
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('data', (m) => {
      const r = parseRecordLine(m.value);
      if (r.ok) cache.apply(r.record);
      if (++n === records) resolve();
    });
  });
  const rate = records / (Number(process.hrtime.bigint() - t0) / 1e9);
  await stream.close().catch(() => undefined);
  await consumer.close(true).catch(() => undefined);
  return rate;
}

/** Produce, then fold through kafkajs; with `compareClients` also through @platformatic/kafka. */
export async function benchKafkaFold(
  brokers: string,
  records: number,
  compareClients: boolean,
): Promise<BenchRow[]> {
  const topicPrefix = `bench-${randomUUID().slice(0, 8)}`;
  const log = kafkaLogForBench(brokers, topicPrefix);
  try {
    const produceRate = await produce(log, records);

    // kafkajs, through the BookFeed (parse + fold included), from offset 0 to the high-water marks.
    const t0 = process.hrtime.bigint();
    const feed = createBookFeed({
      log,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
      fromSnapshots: false,
    });
    await feed.start();
    const kafkajsRate = records / (Number(process.hrtime.bigint() - t0) / 1e9);
    await feed.stop();
    if (feed.stats.applied !== records)
      throw new Error(`kafkajs fold applied ${feed.stats.applied} of ${records} records`);

    const rows: BenchRow[] = [
      {
        scenario: 'log',
        metric: 'kafka produce kafkajs (10 lv)',
        value: produceRate,
        unit: 'records/s',
      },
      { scenario: 'log', metric: 'kafka fold kafkajs (10 lv)', value: kafkajsRate, unit: 'records/s' },
    ];
    if (!compareClients) {
      console.error('log: @platformatic/kafka comparison skipped: add --compare-kafka-clients to run it');
      return rows;
    }
    rows.push({
      scenario: 'log',
      metric: 'kafka fold @platformatic/kafka (10 lv)',
      value: await foldPlatformatic(brokers, `${topicPrefix}.books`, records),
      unit: 'records/s',
    });
    return rows;
  } finally {
    await log.close();
  }
}
