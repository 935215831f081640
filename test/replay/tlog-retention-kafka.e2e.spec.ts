import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTlogEntry } from '@app/audit';
import { TLOG, topicName } from '@app/events';
import { KafkaLog, logSink } from '@app/event-log';
import { fromBase64, parseCheckpointText, verifyConsistency, type Checkpoint } from '@app/transparency';
import { tempDir, waitFor } from '@test/support';
import { world } from '../api/support/world';
import { testBrokers } from '../kafka/broker';
import type { App } from '../storage/support/processes';
import { auditorReplay, startKafkaApi, type SharedKafka } from './support/kafka-replicas';

// docs/audit.md "Retention" on Kafka: the service writes a prefix of its tree every 3 leaves; the
// operator deletes the tlog's records before the newest prefix (deleteRecords); the service
// restarts from it. A new receipt verifies from another machine, a checkpoint kept from before the
// cut is still extended, and a removed leaf's proof is a 404 saying it is past retention.
const dir = tempDir('tlog-retention-kafka');
const apps: App[] = [];
const ids = Array.from({ length: 7 }, (_, i) => `kr-${i + 1}-${randomUUID().slice(0, 6)}`);
const receipts = new Map<string, string>();
let kafka: SharedKafka;
let url: string;
let kept: string;
let keys: string;
let cut: number;

const start = (): Promise<string> =>
  startKafkaApi(kafka, join(dir.path, 'api'), apps, {
    RECEIPTS: 'true',
    RECEIPT_ORIGIN_NAME: 'trim',
    CHECKPOINT_INTERVAL_MS: '300',
    MERGE_DELAY_MS: '1300',
    TLOG_PREFIX_LEAVES: '3',
  });

async function quote(id: string): Promise<void> {
  const res = await fetch(`${url}/route?from=USDT&to=BTC&amountIn=${20 + receipts.size}`, {
    headers: { 'x-request-id': id },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  receipts.set(id, res.headers.get('x-quote-receipt')!);
}

const proven = (list: readonly string[]) =>
  waitFor(
    'the quotes under a checkpoint',
    async () =>
      (await Promise.all(list.map((id) => fetch(`${url}/receipts/${id}/proof`).then((r) => r.status)))).every(
        (s) => s === 200,
      ),
    60_000,
  );

const checkpoint = (text: string): Checkpoint =>
  parseCheckpointText(text.slice(0, text.lastIndexOf('\n\n') + 1))!;

const verify = (id: string, extra: readonly string[] = []) =>
  auditorReplay(kafka, ['verify', 'r.txt', '--keys', 'keys.json', ...extra], {
    files: { 'keys.json': keys, 'r.txt': receipts.get(id)!, 'kept.txt': kept },
  });

beforeAll(async () => {
  kafka = { brokers: await testBrokers(), topicPrefix: `kr-${randomUUID().slice(0, 8)}` };
  const log = new KafkaLog({ brokers: kafka.brokers.split(','), topicPrefix: kafka.topicPrefix });
  const admin = new Kafka({ brokers: kafka.brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await logSink(log).write(world());
    url = await start();
    await quote(ids[0]!);
    await proven([ids[0]!]);
    kept = await (await fetch(`${url}/checkpoint`)).text();
    for (const id of ids.slice(1, 6)) await quote(id);
    await proven(ids.slice(0, 6));
    keys = await (await fetch(`${url}/keys`)).text();
    apps[0]!.child.kill('SIGTERM');
    await apps[0]!.exited;
    // The operator's cut: every tlog record before the newest prefix's first part.
    const entries = await log.read(TLOG, 0, 0);
    const prefixes = entries.flatMap((e) => {
      const p = parseTlogEntry(e.value);
      return p.ok && p.entry.type === 'tlog_prefix' && p.entry.part === 0 ? [{ e, size: p.entry.size }] : [];
    });
    const newest = prefixes[prefixes.length - 1]!;
    cut = newest.size;
    const name = topicName(kafka.topicPrefix, TLOG);
    await admin.fetchTopicMetadata({ topics: [name] });
    await admin.deleteTopicRecords({
      topic: name,
      partitions: [{ partition: 0, offset: String(newest.e.offset) }],
    });
    expect((await log.retainedFrom(TLOG))[0]).toBe(newest.e.offset);
    url = await start();
    await quote(ids[6]!);
    await proven([ids[6]!]);
  } finally {
    await admin.disconnect();
    await log.close();
  }
}, 240_000);

afterAll(() => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  dir.remove();
});

describe('retention of the transparency log on Kafka', () => {
  it('the restarted service continues the tree from the prefix; a new receipt verifies with the kept checkpoint', async () => {
    expect(cut).toBeGreaterThanOrEqual(3);
    const latest = checkpoint(await (await fetch(`${url}/checkpoint`)).text());
    expect(latest.size).toBe(7);
    const r = await verify(ids[6]!, ['--checkpoint', 'kept.txt']);
    expect(r.out, r.err).toBe('verified\n');
    expect(r.code).toBe(0);
  });

  it('the checkpoint kept from before the cut is extended by the latest: its consistency proof verifies', async () => {
    const before = checkpoint(kept);
    expect(before.size).toBeLessThan(cut);
    const latest = checkpoint(await (await fetch(`${url}/checkpoint`)).text());
    const res = await fetch(`${url}/checkpoint/consistency?from=${before.size}&to=${latest.size}`);
    expect(res.status).toBe(200);
    const path = ((await res.json()) as { consistencyPath: string[] }).consistencyPath.map((h) =>
      fromBase64(h, 32)!,
    );
    expect(verifyConsistency(before.size, latest.size, before.root, latest.root, path)).toEqual({ ok: true });
  });

  it("a removed leaf's proof is a 404 saying it is past retention; replay verify names the tlog's retention", async () => {
    const res = await fetch(`${url}/receipts/${ids[0]!}/proof`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain(`before leaf ${cut} is past retention`);
    const r = await verify(ids[0]!);
    expect(r.out, r.err).toBe('failed: not_in_log\n');
    expect(r.err).toContain(`from leaf ${cut} (the leaves before it are past the tlog's retention)`);
  });
});
