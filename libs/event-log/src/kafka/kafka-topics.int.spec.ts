import { describe, expect, it } from 'vitest';
import { KafkaJSProtocolError, type Kafka } from 'kafkajs';
import { TOPICS, topicName } from '@app/events';
import { KafkaTopics } from './kafka-topics';

/** kafkajs's own error for a partition whose leader is being elected or has moved (code 6, retriable). */
const notLeader = (): Error =>
  new KafkaJSProtocolError({
    type: 'NOT_LEADER_FOR_PARTITION',
    code: 6,
    retriable: true,
    message: 'This server is not the leader for that topic-partition',
  } as never);

/** A cluster whose admin clients answer the log's topics as existing, and offsets as `answers` says. */
function cluster(answers: (() => Promise<unknown>)[]): {
  kafka: Kafka;
  admins: () => number;
  calls: () => number;
} {
  let admins = 0;
  let calls = 0;
  const existing = TOPICS.flatMap((t) => [topicName('p', t), `${topicName('p', t)}.snapshots`]);
  const kafka = {
    admin: () => {
      admins++;
      return {
        connect: () => Promise.resolve(),
        disconnect: () => Promise.resolve(),
        listTopics: () => Promise.resolve(existing),
        fetchTopicOffsets: () => answers[Math.min(calls++, answers.length - 1)]!(),
      };
    },
  } as unknown as Kafka;
  return { kafka, admins: () => admins, calls: () => calls };
}

const offsets = [
  { partition: 1, offset: '0', high: '7', low: '2' },
  { partition: 0, offset: '0', high: '5', low: '0' },
];

describe('KafkaTopics: admin calls while a partition leader is being elected', () => {
  it('asks again, with a new admin client, while kafkajs says the error is retriable (the fleet: an API started as its topics were created on a 3-broker cluster exited with NOT_LEADER_FOR_PARTITION)', async () => {
    const c = cluster([
      () => Promise.reject(notLeader()),
      () => Promise.reject(notLeader()),
      () => Promise.resolve(offsets),
    ]);
    const topics = new KafkaTopics(c.kafka, { prefix: 'p' });
    expect(await topics.offsets('p.venues')).toEqual([5, 7]);
    expect(c.calls()).toBe(3);
    expect(c.admins()).toBe(3);
  });

  it("asks again when kafkajs fails on its own empty answer (its metadata lacked the topic while other topics' calls refreshed it)", async () => {
    const c = cluster([
      () =>
        Promise.reject(
          new TypeError("Cannot destructure property 'partitions' of 'high.pop(...)' as it is undefined."),
        ),
      () => Promise.resolve(offsets),
    ]);
    const topics = new KafkaTopics(c.kafka, { prefix: 'p' });
    expect(await topics.offsets('p.venues')).toEqual([5, 7]);
    expect(c.calls()).toBe(2);
    expect(c.admins()).toBe(2);
  });

  it('fails at once, naming the topic, on an error no retry can cure', async () => {
    const c = cluster([() => Promise.reject(new Error('Topic authorization failed'))]);
    const topics = new KafkaTopics(c.kafka, { prefix: 'p' });
    await expect(topics.offsets('p.venues')).rejects.toThrow(
      'Kafka offsets of p.venues: Topic authorization failed',
    );
    expect(c.calls()).toBe(1);
  });

  it('gives up after its attempts (about 5 s) with the last error', async () => {
    const c = cluster([() => Promise.reject(notLeader())]);
    const topics = new KafkaTopics(c.kafka, { prefix: 'p' });
    await expect(topics.offsets('p.venues')).rejects.toThrow('not the leader');
    expect(c.calls()).toBe(8);
  }, 15_000);
});
