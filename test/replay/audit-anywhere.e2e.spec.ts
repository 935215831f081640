import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_INDEX_BLOCK, SharedJournalIndex, sharedIndexTopics } from '@app/audit';
import { KafkaLog, logSink } from '@app/event-log';
import { tempDir, waitFor } from '@test/support';
import { world } from '../api/support/world';
import { testBrokers } from '../kafka/broker';
import type { App } from '../storage/support/processes';
import { auditorReplay, startKafkaApi, type SharedKafka } from './support/kafka-replicas';

// Issue 20, auditing anywhere: two API processes on one Kafka journal publish its requestId index
// beside it; an auditor in an empty directory, given nothing but KAFKA_BROKERS (and the topic
// prefix), replays what either served to the bytes the clients received, through that index; the
// fallback (--scan, the requestId's whole partition) gives the same bytes.
const PARTITIONS = 4;
const dir = tempDir('audit-anywhere');
const apps: App[] = [];
let brokers: string;
let topicPrefix: string;
let log: KafkaLog;
/** Bodies the clients received, by requestId, in the order they were served. */
const served = new Map<string, string[]>();
const early: string[] = [];
const late: string[] = [];
const REUSED = `reused-${randomUUID().slice(0, 8)}`;

const kafka = (): SharedKafka => ({ brokers, topicPrefix });

const startApi = (name: string): Promise<string> => startKafkaApi(kafka(), join(dir.path, name), apps);

async function quote(url: string, id: string, amount: number): Promise<void> {
  const res = await fetch(`${url}/route?from=USDT&to=BTC&amountIn=${amount}`, {
    headers: { 'x-request-id': id },
  });
  expect(res.status).toBe(200);
  served.set(id, [...(served.get(id) ?? []), await res.text()]);
}

/** `route-service replay <args>` in an empty directory with the brokers and the prefix alone. */
const auditor = (
  args: readonly string[],
  stdin = '',
): Promise<{ code: number | null; out: string; err: string }> => auditorReplay(kafka(), args, { stdin });

beforeAll(async () => {
  brokers = await testBrokers();
  topicPrefix = `aa-${randomUUID().slice(0, 8)}`;
  log = new KafkaLog({ brokers: brokers.split(','), topicPrefix, partitions: { quotes: PARTITIONS } });
  await logSink(log).write(world());
  const [a, b] = await Promise.all([startApi('api-a'), startApi('api-b')]);
  for (let i = 0; i < 12; i++) {
    const id = `early-${i}-${randomUUID().slice(0, 8)}`;
    await quote(i % 2 === 0 ? a : b, id, 10 + i);
    early.push(id);
  }
  // A client that reused its x-request-id, once with each replica (the second once the first is in
  // the journal: replicas append in batches, so the journal's order is not the order served).
  const index = new SharedJournalIndex(log, sharedIndexTopics(log)!);
  await quote(a, REUSED, 21);
  await waitFor(
    'the first record of the reused id',
    async () => (await index.entries(REUSED)).entries.length === 1,
  );
  await quote(b, REUSED, 37);
  // More journal than a block per partition behind those quotes: the replicas publish runs over them.
  const [template] = await log.read(
    'quotes',
    (await log.highWatermarks('quotes')).findIndex((h) => h > 0),
    0,
    1,
  );
  for (let i = 0; i < PARTITIONS * SHARED_INDEX_BLOCK * 1.3; i += 2000)
    await log.append(
      'quotes',
      Array.from({ length: 2000 }, (_, k) => ({ key: `filler-${i + k}`, value: template!.value })),
    );
  for (let i = 0; i < 4; i++) {
    const id = `late-${i}-${randomUUID().slice(0, 8)}`;
    await quote(i % 2 === 0 ? a : b, id, 50 + i);
    late.push(id);
  }
  // The replicas publish every 2 s: wait until the index covers every early quote.
  await waitFor(
    'the replicas to publish the requestId index',
    async () => (await Promise.all(early.map((id) => index.entries(id)))).every((e) => e.runs > 0),
    90_000,
  );
}, 240_000);

afterAll(async () => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  await log?.close();
  dir.remove();
});

describe('auditing from any machine with KAFKA_BROKERS alone', () => {
  let viaIndex = '';

  it('replays every quote either replica served to the bytes the client received, through the published index', async () => {
    const ids = [...early, ...late];
    const { code, out, err } = await auditor(['quote', '-'], ids.join('\n'));
    expect(code, err).toBe(0);
    expect(out).toBe(ids.map((id) => `${served.get(id)![0]}\n`).join(''));
    const verdicts = err.split('\n').filter((l) => l.startsWith('identical: '));
    expect(verdicts).toHaveLength(ids.length);
    for (const line of verdicts) {
      const m = /index: (\d+) run\(s\) searched, (\d+) unindexed entries read/.exec(line);
      expect(m, line).not.toBeNull();
      expect(Number(m![1]), line).toBeGreaterThan(0);
      // Only the tail past the published runs is read, never the partition.
      expect(Number(m![2]), line).toBeLessThan(SHARED_INDEX_BLOCK);
    }
    viaIndex = out;
  });

  it('the fallback, --scan, reads the partitions and gives the same bytes', async () => {
    const ids = [...early, ...late];
    const { code, out, err } = await auditor(['quote', '-', '--scan'], ids.join('\n'));
    expect(code, err).toBe(0);
    expect(out).toBe(viaIndex);
    expect(err).toMatch(/journal partition read in full \(--scan\)/);
  });

  it('a reused requestId: both records listed and replayed, oldest first, either way', async () => {
    const list = await auditor(['quote', REUSED, '--list']);
    expect(list.code, list.err).toBe(0);
    expect(
      list.out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => /#(\d)\/2/.exec(l)?.[1]),
    ).toEqual(['1', '2']);
    for (const args of [[], ['--scan']]) {
      const r = await auditor(['quote', REUSED, ...args]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toBe(
        served
          .get(REUSED)!
          .map((b) => `${b}\n`)
          .join(''),
      );
    }
  });

  it('explain works from there too and explains the journalled answer', async () => {
    const r = await auditor(['explain', late[0]!, '--json']);
    expect(r.code, r.err).toBe(0);
    const [explained] = r.out
      .split('\n')
      .map((l) => l !== '' && (JSON.parse(l) as { identical: boolean; result: unknown }));
    expect(explained).toMatchObject({ identical: true, result: JSON.parse(served.get(late[0]!)![0]!) });
  });
});
