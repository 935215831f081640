import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaLog, partitionFor } from '@app/event-log';
import { waitFor } from '@test/support';
import { closeAgents, openStream, type StreamClient } from './support/client';
import { FLEET_VENUES, type Fleet } from './support/fleet';
import { AckedWriter } from './support/acked-writer';
import { runAuditor as audit } from './support/auditor';
import {
  FAILOVER_WINDOW_MS,
  fleetSteps,
  isFresh,
  loadAddresses,
  MARGIN_MS,
  QUOTE,
  READ_BACK_MS,
  STREAM_QUERY,
  startTestFleet,
  TAKEOVER_MS,
} from './support/fleet-steps';
import { QuoteLoad, type Answered } from './support/load';
import { sequenceBreaks, TopicWatch } from './support/topic-watch';

/**
 * The fleet broken under load (support/fleet-steps.ts starts it): an append across a moved
 * partition leader, then a broker, an ingestor and an API replica killed in turn. Steps share the
 * fleet and run in order: the books topic is watched over all of them, so the ingestor step's
 * sequence check covers the broker's loss too. The shared limits are shared-limits.fleet.spec.ts.
 */
let fleet: Fleet;
let books: TopicWatch;
let quotes: TopicWatch;
/** Every load answer of every step, for the audit. */
const answered: Answered[] = [];
const { owners, endsOf, endOf, leaderOf, started } = fleetSteps(() => fleet);
const runAuditor = (ids: readonly string[]) => audit(fleet.env, ids);

beforeAll(async () => {
  fleet = await startTestFleet(9);
  const prefix = fleet.env.TOPIC_PREFIX!;
  [books, quotes] = await Promise.all([
    new TopicWatch(fleet.env.KAFKA_BROKERS!, `${prefix}.books`).start(),
    new TopicWatch(fleet.env.KAFKA_BROKERS!, `${prefix}.quotes`).start(),
  ]);
});

afterAll(async () => {
  closeAgents();
  await books?.stop();
  await quotes?.stop();
  await fleet?.stop();
});

describe('the fleet: failover', () => {
  it('starts: each venue owned by exactly one live ingestor, quotes through the load balancer', async () => {
    await started();
  });

  it("an append whose partition's leader moved to a broker that answers for another partition of it is written whole", async () => {
    // kafkajs keeps a send's answers per broker across retries; this append is the case it would
    // acknowledge without sending one partition's entries (libs/event-log kafka-send.ts).
    const prefix = `${fleet.env.TOPIC_PREFIX!}-moved`;
    const topic = `${prefix}.books`;
    const admin = new Kafka({
      brokers: fleet.env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    const log = new KafkaLog({
      brokers: fleet.env.KAFKA_BROKERS!.split(','),
      topicPrefix: prefix,
      replicationFactor: 3,
      minInsyncReplicas: 2,
      onProblem: () => undefined,
    });
    try {
      // Partition 0 led by node 1, partition 1 by node 2 (the first replica leads). On a cluster,
      // kafkajs's wait for the leaders may ask a broker that does not know the topic yet
      // (UNKNOWN_TOPIC_OR_PARTITION): the topic is made all the same, and waited for below.
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: [
            {
              topic,
              replicaAssignment: [
                { partition: 0, replicas: [1, 2, 3] },
                { partition: 1, replicas: [2, 3, 1] },
              ],
              configEntries: [{ name: 'min.insync.replicas', value: '2' }],
            },
          ],
        })
        .catch((e: unknown) => {
          if (!String(e).includes('does not host this topic-partition')) throw e;
        });
      await waitFor(
        'the topic known with its leaders',
        async () => {
          const meta = await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => null);
          const leaders = meta?.topics[0]?.partitions.map((p) => [p.partitionId, p.leader]) ?? [];
          return JSON.stringify(leaders.sort((x, y) => x[0]! - y[0]!)) === '[[0,1],[1,2]]';
        },
        60_000,
      );
      const keyOf = (p: number): string => {
        for (let i = 0; ; i++) if (partitionFor(`moved|K${i}`, 2) === p) return `moved|K${i}`;
      };
      const [k0, k1] = [keyOf(0), keyOf(1)];
      // The writer learns the leaders with a first append.
      await log.append('books', [
        { key: k0, value: 'before-0' },
        { key: k1, value: 'before-1' },
      ]);
      // Partition 0's leadership moves to node 2, which leads partition 1.
      await admin.alterPartitionReassignments({
        topics: [{ topic, partitionAssignment: [{ partition: 0, replicas: [2, 3] }] }],
      });
      await waitFor(
        'partition 0 led by node 2',
        async () => {
          const meta = await admin.fetchTopicMetadata({ topics: [topic] }).catch(() => null);
          const p0 = meta?.topics[0]!.partitions.find((p) => p.partitionId === 0);
          return p0?.leader === 2 && !p0.replicas.includes(1);
        },
        60_000,
      );
      await log.append('books', [
        { key: k0, value: 'after-0' },
        { key: k1, value: 'after-1' },
      ]);
      // Each entry once (an exact copy is the other way kafkajs's retry can go: an answer that had
      // not arrived when the retry began sends that broker's partitions again).
      const values = async (p: number): Promise<string[]> => [
        ...new Set((await log.read('books', p, 0)).map((e) => e.value)),
      ];
      expect(await values(0)).toEqual(['before-0', 'after-0']);
      expect(await values(1)).toEqual(['before-1', 'after-1']);
    } finally {
      await log.close();
      await admin.disconnect();
    }
  });

  it("the partition leader's broker SIGKILLed under ingest and quote load: nothing acknowledged lost, writers and readers resume", async () => {
    const prefix = fleet.env.TOPIC_PREFIX!;
    const writer = new AckedWriter(fleet.env.KAFKA_BROKERS!, `${prefix}-acks`);
    writer.start();
    const load = new QuoteLoad(fleet.haproxy.url, QUOTE, loadAddresses(4), 3);
    await waitFor(
      'acknowledged writes and quotes',
      () => writer.acked.length >= 40 && load.answers.filter((a) => a.status === 200).length >= 10,
      60_000,
    );
    const leader = await leaderOf(`${prefix}.books`, 0);
    const killedAt = Date.now();
    await fleet.cluster.kill(leader);
    await waitFor(
      'the writer acknowledged again',
      () => writer.acked.some((a) => a.at > killedAt + 500),
      FAILOVER_WINDOW_MS + MARGIN_MS,
    );
    // The ingestors write again: the books topic grows past where it stood a second after the kill.
    await new Promise((r) => setTimeout(r, 1000));
    const booksThen = await endOf(`${prefix}.books`).catch(() => 0);
    await waitFor(
      'the ingestors wrote again',
      async () => (await endOf(`${prefix}.books`).catch(() => 0)) > booksThen + 20,
      FAILOVER_WINDOW_MS + MARGIN_MS,
    );
    await waitFor(
      'quotes answered again',
      () => load.answers.some((a) => a.at > killedAt + 1000 && a.status === 200),
      FAILOVER_WINDOW_MS + MARGIN_MS,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const answers = await load.stop();
    await writer.stop();
    answered.push(...answers);
    await fleet.cluster.start();
    const resumedAfter = Math.min(...writer.acked.filter((a) => a.at > killedAt).map((a) => a.at)) - killedAt;

    // Every acknowledged entry is in the topic: read back by a plain consumer (not the service's
    // code) up to the topic's end, then compared exactly.
    const check = await new TopicWatch(fleet.env.KAFKA_BROKERS!, writer.topic).start();
    try {
      await check.reached(await endsOf(writer.topic), READ_BACK_MS);
    } finally {
      await check.stop();
    }
    const there = new Set(check.seen.map((r) => (JSON.parse(r.value) as { seq: number }).seq));
    expect(writer.acked.map((a) => a.seq).filter((s) => !there.has(s))).toEqual([]);
    // Every quote answered 200 was journalled first (JOURNAL_STRICT): its record is in the quotes topic.
    const ok = answers.filter((a) => a.status === 200);
    await quotes.reached(await endsOf(`${prefix}.quotes`), READ_BACK_MS);
    expect(ok.filter((a) => !quotes.keys().has(a.requestId!)).map((a) => a.requestId)).toEqual([]);
    // 5xx (the journal could not append) only inside the failover window; none from the balancer.
    const serverErrors = answers.filter((a) => a.status >= 500 || a.status === 0);
    expect(serverErrors.filter((a) => a.at > killedAt + FAILOVER_WINDOW_MS || a.at < killedAt)).toEqual([]);
    console.log(
      `broker ${leader} killed: writer acknowledged again after ${resumedAfter} ms; ${writer.acked.length} entries acknowledged, ${writer.failures.length} appends failed; ${ok.length} quotes 200, ${serverErrors.length} 5xx (statuses ${[...new Set(serverErrors.map((a) => a.status))].join(',')})`,
    );
  });

  it("one ingestor SIGKILLed: its venues publish again from the other within the stated time; no book's sequence breaks", async () => {
    const before = owners();
    const victim = fleet.ingestors.find((p) => p.alive() && (before.get(p.name) ?? []).length > 0)!;
    const orphans = before.get(victim.name)!;
    const survivor = fleet.ingestors.find((p) => p.alive() && p !== victim)!;
    const killedAt = Date.now();
    await victim.kill();
    await waitFor(
      'the survivor owns every venue',
      () => (owners().get(survivor.name) ?? []).length === FLEET_VENUES.length,
      TAKEOVER_MS + MARGIN_MS,
    );
    // The new owner's first records: each orphaned book starts afresh, a snapshot of sequence 1.
    const firstSnapshot = (venue: string): number | undefined =>
      books
        .records()
        .filter((r) => r.at > killedAt && r.key.startsWith(`${venue}|`) && isFresh(r.value))
        .reduce<number | undefined>((min, r) => (min === undefined || r.at < min ? r.at : min), undefined);
    await waitFor(
      'the orphaned venues published again',
      () => orphans.every((v) => firstSnapshot(v) !== undefined),
      TAKEOVER_MS + MARGIN_MS,
    );
    const takeoverMs = Math.max(...orphans.map((v) => firstSnapshot(v)! - killedAt));
    console.log(
      `ingestor ${victim.name} killed: ${orphans.join(',')} published again by ${survivor.name} after ${takeoverMs} ms (stated: ${TAKEOVER_MS} ms)`,
    );
    expect(takeoverMs).toBeLessThan(TAKEOVER_MS + MARGIN_MS);
    // A new ingestor joins: the venues split again, each with one owner.
    const joined = fleet.addIngestor('ingestor-3');
    await waitFor(
      'one venue per ingestor again',
      () => {
        const all = [...owners().values()];
        return all.length === 2 && all.every((v) => v.length === 1) && new Set(all.flat()).size === 2;
      },
      60_000,
    );
    expect(joined.alive()).toBe(true);
    await new Promise((r) => setTimeout(r, 2000));
    // Over the whole run (rebalances, a broker lost, an ingestor killed): no book sequence broke,
    // as readers see it (an earlier owner's delta written after the new owner's snapshot is ignored
    // by its owner epoch: docs/events.md "Owner epochs"; counted here).
    const stale: string[] = [];
    expect(sequenceBreaks(books.records(), stale)).toEqual([]);
    console.log(
      `late deltas of an earlier owner, ignored by epoch: ${stale.length} ${stale.slice(0, 4).join('; ')}`,
    );
  });

  it('one API replica SIGKILLed under load: clients move to the other, streams reconnect, every 200 replays to the same bytes from an auditor', async () => {
    const streams: StreamClient[] = [];
    const streamFrom = loadAddresses(16);
    for (const from of streamFrom) {
      streams.push(await openStream(fleet.haproxy.url, STREAM_QUERY, from));
      const on = new Set(streams.filter((s) => s.closed === null).map((s) => s.servedBy));
      if (on.has('api-a') && on.has('api-b')) break;
    }
    const onA = streams.filter((s) => s.servedBy === 'api-a' && s.closed === null);
    expect(onA.length, JSON.stringify(streams.map((s) => [s.servedBy, s.closed]))).toBeGreaterThan(0);
    const load = new QuoteLoad(fleet.haproxy.url, QUOTE, loadAddresses(3), 2);
    await waitFor(
      'both replicas answering',
      () => new Set(load.answers.filter((a) => a.status === 200).map((a) => a.servedBy)).size === 2,
      30_000,
    );
    const killedAt = Date.now();
    await fleet.apis.find((p) => p.name === 'api-a')!.kill();
    await waitFor(
      'the streams on the killed replica closed',
      () => onA.every((s) => s.closed !== null),
      30_000,
    );
    // They reconnect through the balancer: to the live replica.
    const back = await Promise.all(
      onA.map((s, i) => openStream(fleet.haproxy.url, STREAM_QUERY, streamFrom[i]!)),
    );
    for (const s of back) {
      expect(s.closed).toBeNull();
      expect(s.servedBy).toBe('api-b');
    }
    await waitFor(
      'quotes from the live replica',
      () => load.answers.filter((a) => a.at > killedAt + 3000 && a.status === 200).length >= 10,
      30_000,
    ).catch((e: Error) => {
      const after = load.answers
        .filter((a) => a.at > killedAt)
        .map((a) => `${a.status} ${a.servedBy ?? '-'} ${a.body.slice(0, 80)}`);
      throw new Error(`${e.message}; answers after the kill: ${JSON.stringify(after.slice(-6))}`);
    });
    const answers = await load.stop();
    answered.push(...answers);
    for (const s of [...streams, ...back]) s.ws.close();
    // After the balancer's checks marked the replica down (2 x 500 ms), every answer is the live one's.
    const late = answers.filter((a) => a.at > killedAt + 3000);
    expect(late.filter((a) => a.status !== 200 || a.servedBy !== 'api-b')).toEqual([]);
    console.log(
      `api-a killed: ${answers.filter((a) => a.at > killedAt && a.status !== 200).length} answers not 200 after the kill (statuses ${[...new Set(answers.filter((a) => a.at > killedAt && a.status !== 200).map((a) => a.status))].join(',')})`,
    );

    // The auditor: another process, another directory, nothing but the brokers (KAFKA_BROKERS).
    // This step's quotes (before and after the kill); the broker step checked its own against the journal.
    const ok = answers.filter((a) => a.status === 200);
    expect(new Set(ok.map((a) => a.servedBy))).toEqual(new Set(['api-a', 'api-b']));
    const audit = await runAuditor(ok.map((a) => a.requestId!));
    expect(audit.code, audit.err.slice(-2000)).toBe(0);
    expect(audit.err.match(/^identical: /gm)?.length).toBe(ok.length);
    // Byte for byte what the clients received, whichever replica served it.
    const received = new Set(ok.map((a) => a.body));
    const replayed = audit.out.split('\n').filter((l) => l !== '');
    expect(replayed).toHaveLength(ok.length);
    expect(replayed.filter((b) => !received.has(b))).toEqual([]);
    console.log(`auditor replayed ${ok.length} quotes in ${audit.ms} ms`);
  });
});
