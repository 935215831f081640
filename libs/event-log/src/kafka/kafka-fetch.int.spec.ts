import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import { ownedBroker, testBrokers, type OwnedBroker } from '../../../../test/kafka/broker';
import { LogError } from '../log-error';
import { KafkaLog } from './kafka-log';

const entries = (n: number, tag: string): { key: string; value: string }[] =>
  Array.from({ length: n }, (_, i) => ({ key: `k-${i % 7}`, value: JSON.stringify({ tag, i }) }));

/** Consumer groups whose id starts with `prefix` (a read through a consumer would leave one). */
async function groups(brokers: string, prefix: string): Promise<string[]> {
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
  } finally {
    await admin.disconnect();
  }
}

describe('KafkaLog.read: by offset, without a consumer group (real broker)', () => {
  const logs: KafkaLog[] = [];
  let owned: OwnedBroker | null = null;
  afterAll(async () => {
    for (const l of logs) await l.close();
    await owned?.dispose();
  });

  it('reads exactly [from, from + max) up to the end as of the call, skips what retention removed, joins no group', async () => {
    const brokers = await testBrokers();
    const topicPrefix = `rf-${randomUUID().slice(0, 8)}`;
    const log = new KafkaLog({ brokers: brokers.split(','), topicPrefix, partitions: { quotes: 1 } });
    logs.push(log);
    // Several produce requests, so reads cross record batches.
    for (let b = 0; b < 6; b++) await log.append('quotes', entries(500, `b${b}`));
    const all = await log.read('quotes', 0, 0);
    expect(all.map((e) => e.offset)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(JSON.parse(all[1234]!.value)).toEqual({ tag: 'b2', i: 234 });
    const some = await log.read('quotes', 0, 1499, 3);
    expect(some.map((e) => [e.offset, e.key])).toEqual([
      [1499, 'k-2'],
      [1500, 'k-0'],
      [1501, 'k-1'],
    ]);
    expect(await log.read('quotes', 0, 3000)).toEqual([]);
    expect(await log.read('quotes', 0, 99_999, 5)).toEqual([]);
    await expect(log.read('quotes', 1, 0)).rejects.toBeInstanceOf(LogError);
    // The log start moved (what retention does): a read from below it starts at it.
    const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.fetchTopicMetadata({ topics: [`${topicPrefix}.quotes`] });
    await admin.deleteTopicRecords({
      topic: `${topicPrefix}.quotes`,
      partitions: [{ partition: 0, offset: '1000' }],
    });
    await admin.disconnect();
    const after = await log.read('quotes', 0, 10, 5);
    expect(after.map((e) => e.offset)).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(await groups(brokers, topicPrefix)).toEqual([]);
  });

  it('a read waits through a broker restart and returns what the log holds', async () => {
    owned = await ownedBroker('fetch-restart', 5);
    const log = new KafkaLog({ brokers: [owned.brokers], topicPrefix: 'restart', partitions: { quotes: 1 } });
    logs.push(log);
    await log.append('quotes', entries(200, 'before'));
    expect(await log.read('quotes', 0, 0, 10)).toHaveLength(10);
    await owned.stop();
    const pending = log.read('quotes', 0, 150);
    await new Promise((r) => setTimeout(r, 1000));
    await owned.start();
    const got = await pending;
    expect(got.map((e) => e.offset)).toEqual(Array.from({ length: 50 }, (_, i) => 150 + i));
  }, 120_000);
});
