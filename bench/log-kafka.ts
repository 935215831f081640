/** Kafka fold throughput: the same topic folded through kafkajs (our adapter) and @platformatic/kafka 1.x. */
import { randomUUID } from 'node:crypto';
import { BookCache } from '@app/books';
import { parseRecordLine } from '@app/events';
import { KafkaLog } from '@app/log';
import { createBookFeed } from '../apps/api/src/feed/log-book-feed';
import type { BenchRow } from './bench-row';
import { bookRecords, toEntries, type StreamSpec } from './log-generator';

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
interface PlatformaticStream extends AsyncIterable<PlatformaticMessage> {
  close(): Promise<void>;
}
interface PlatformaticConsumer {
  consume(options: Record<string, unknown>): Promise<PlatformaticStream>;
  close(force?: boolean): Promise<void>;
}

export async function benchKafkaFold(brokers: string, records: number): Promise<BenchRow[]> {
  const topicPrefix = `bench-${randomUUID().slice(0, 8)}`;
  const log = kafkaLogForBench(brokers, topicPrefix);
  const spec: StreamSpec = {
    venues: 10,
    symbolsPerVenue: 10,
    bookRecords: records,
    levels: 10,
    snapshotEvery: 1000,
    startAt: 1_786_000_000_000,
  };
  const entries = toEntries([...bookRecords(spec)]);
  const tp = process.hrtime.bigint();
  for (let i = 0; i < entries.length; i += 10_000) await log.append('books', entries.slice(i, i + 10_000));
  const produceS = Number(process.hrtime.bigint() - tp) / 1e9;

  // kafkajs, through the BookFeed (parse + fold included), from offset 0 to the high-water marks.
  const t0 = process.hrtime.bigint();
  const feed = createBookFeed({
    log,
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    fromSnapshots: false,
  });
  await feed.start();
  const kafkajsS = Number(process.hrtime.bigint() - t0) / 1e9;
  await feed.stop();

  // @platformatic/kafka 1.x: a raw consumer from the earliest offsets, same parse + fold.
  const { Consumer, stringDeserializers } = (await import('@platformatic/kafka')) as unknown as {
    Consumer: new (o: Record<string, unknown>) => PlatformaticConsumer;
    stringDeserializers: unknown;
  };
  const consumer = new Consumer({
    groupId: `${topicPrefix}-pk`,
    clientId: 'bench',
    bootstrapBrokers: brokers.split(','),
    deserializers: stringDeserializers,
  });
  const cache = new BookCache();
  const t1 = process.hrtime.bigint();
  const stream = await consumer.consume({
    topics: [`${topicPrefix}.books`],
    mode: 'earliest',
    autocommit: false,
    maxWaitTime: 100,
    maxBytes: 64 * 1024 * 1024,
  });
  let n = 0;
  for await (const m of stream) {
    const r = parseRecordLine(m.value);
    if (r.ok) cache.apply(r.record);
    if (++n >= records) break;
  }
  const platformaticS = Number(process.hrtime.bigint() - t1) / 1e9;
  await stream.close().catch(() => undefined);
  await consumer.close(true).catch(() => undefined);
  await log.close();
  return [
    {
      scenario: 'log',
      metric: 'kafka produce (kafkajs, 10 levels)',
      value: records / produceS,
      unit: 'records/s',
    },
    {
      scenario: 'log',
      metric: 'kafka fold kafkajs (10 levels)',
      value: records / kafkajsS,
      unit: 'records/s',
    },
    {
      scenario: 'log',
      metric: 'kafka fold @platformatic/kafka (10 levels)',
      value: records / platformaticS,
      unit: 'records/s',
    },
  ];
}
