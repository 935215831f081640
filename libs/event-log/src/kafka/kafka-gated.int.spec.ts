import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBrokers } from '../../../../test/kafka/broker';
import { HealthRegistry } from '../log-health';
import { KafkaGatedWriter } from './kafka-gated';
import { KafkaLog } from './kafka-log';

/**
 * The gated writer of an ingestor group's shard slot on a real broker. What it is for: an append
 * already under way when the slot is given up (kafkajs retrying a produce inside one send) must
 * send nothing after that moment, or its entries land after the next owner's and break a book's
 * sequence. The retry is made real: the topic written does not exist yet (kafkajs retries
 * UNKNOWN_TOPIC_OR_PARTITION) until the test creates it.
 */
let brokers: string[];
let admin: Admin;
let log: KafkaLog;

beforeAll(async () => {
  brokers = (await testBrokers()).split(',');
  admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  log = new KafkaLog({ brokers, topicPrefix: `gated-${randomUUID().slice(0, 8)}` });
});
afterAll(async () => {
  await log?.close();
  await admin?.disconnect();
});

/** A topic that does not exist until `accept`: kafkajs retries a produce to it meanwhile. */
function refusingTopic(): { name: string; accept(): Promise<void>; end(): Promise<number> } {
  const name = `gated-${randomUUID().slice(0, 8)}`;
  return {
    name,
    accept: async () => {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: name, numPartitions: 1, replicationFactor: 1 }],
      });
    },
    end: async () => Number((await admin.fetchTopicOffsets(name))[0]!.high),
  };
}

/** A writer whose `venues` topic is `name` (no snapshot marks), sending while `may()`. */
function writerTo(name: string, may?: () => boolean): KafkaGatedWriter {
  return new KafkaGatedWriter({
    may,
    brokers,
    clientId: 'gated-spec',
    health: new HealthRegistry(),
    partitions: () => Promise.resolve(1),
    physical: () => name,
    marksTopic: () => `${name}.marks`,
  });
}

const settle = (p: Promise<void>): Promise<unknown> =>
  p.then(
    () => 'appended',
    (e: unknown) => e,
  );

describe('KafkaGatedWriter (real broker)', () => {
  it('appends through the log; shut: refused at once; open: appends again', async () => {
    const w = log.gatedWriter();
    try {
      await w.append('venues', [{ key: 'a', value: '1' }]);
      w.shut('given up');
      expect(w.isOpen).toBe(false);
      await expect(w.append('venues', [{ key: 'a', value: '2' }])).rejects.toMatchObject({
        code: 'unavailable',
      });
      w.open();
      await w.append('venues', [{ key: 'a', value: '3' }]);
      const values = (await log.read('venues', 0, 0)).map((e) => e.value);
      expect(values).toEqual(['1', '3']);
    } finally {
      await w.close();
    }
  });

  it('an append under way when shut sends nothing after: its retries never land', async () => {
    const t = refusingTopic();
    const w = writerTo(t.name);
    let settled = false;
    const outcome = settle(w.append('venues', [{ key: 'k', value: 'late' }])).finally(() => (settled = true));
    try {
      // kafkajs is retrying the refused produce now (every 0.2-2 s, for about 15 s).
      await new Promise((r) => setTimeout(r, 1500));
      expect(settled).toBe(false);
      w.shut('the slot moved');
      await t.accept();
      // Long enough for the retries kafkajs still had planned to have landed (see the next test).
      await new Promise((r) => setTimeout(r, 3000));
      expect(await t.end()).toBe(0);
    } finally {
      await w.close();
    }
    // It fails once kafkajs gives up (every connection refused), as an outage would.
    void outcome;
  }, 60_000);

  it('a writer whose lease lapsed (may() false) sends nothing, though nobody shut it', async () => {
    const t = refusingTopic();
    let lease = true;
    const w = writerTo(t.name, () => lease);
    const outcome = settle(w.append('venues', [{ key: 'k', value: 'late' }]));
    try {
      await new Promise((r) => setTimeout(r, 1500));
      lease = false;
      await t.accept();
      await new Promise((r) => setTimeout(r, 3000));
      expect(await t.end()).toBe(0);
    } finally {
      await w.close();
    }
    void outcome;
  }, 60_000);

  it('(the same append, never shut, lands once the topic accepts it: the retry above was real)', async () => {
    const t = refusingTopic();
    const w = writerTo(t.name);
    try {
      const outcome = settle(w.append('venues', [{ key: 'k', value: 'late' }]));
      await new Promise((r) => setTimeout(r, 1500));
      await t.accept();
      expect(await outcome).toBe('appended');
      expect(await t.end()).toBe(1);
    } finally {
      await w.close();
    }
  }, 60_000);
});
