import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTlogEntry, parseTlogEntry, type LeafRef } from '@app/audit';
import { TLOG, topicName, type TopicName } from '@app/events';
import { KafkaLog, logSink, partitionFor, type LogEntry } from '@app/event-log';
import { decodeReceipt, encodeReceipt, publishKey, signingKeyFromSeed } from '@app/transparency';
import { T0, tempDir, waitFor } from '@test/support';
import { world } from '../api/support/world';
import { testBrokers } from '../kafka/broker';
import type { App } from '../storage/support/processes';
import { auditorReplay, startKafkaApi, type SharedKafka } from './support/kafka-replicas';

// Issue 29's tamper tests on Kafka. A record there cannot be edited in place, so each attack is
// what an operator with access to the brokers can do: truncate a partition (deleteRecords) and
// produce altered, missing, swapped or earlier contents in its place, or produce an altered copy
// under the same key once the original is gone. One API process signs five quotes; the auditor
// (an empty directory, the brokers, the public keys) catches each attack by its named reason.
const dir = tempDir('receipts-kafka-tamper');
const apps: App[] = [];
const IDS = ['kt-1', 'kt-2', 'kt-3', 'kt-4', 'kt-5'].map((k) => `${k}-${randomUUID().slice(0, 6)}`);
const receipts = new Map<string, string>();
let kafka: SharedKafka;
let log: KafkaLog;
let admin: Admin;
let keys: string;
/** The tlog as written (every entry), as of the first checkpoint over kt-1..kt-4, and that checkpoint. */
let tlogIntact: LogEntry[];
let tlogEarlier: LogEntry[];
let keptLatest: string;
let origin: string;

async function quote(url: string, id: string, amount: number): Promise<void> {
  const res = await fetch(`${url}/route?from=USDT&to=BTC&amountIn=${amount}`, {
    headers: { 'x-request-id': id },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  receipts.set(id, res.headers.get('x-quote-receipt')!);
}

const proven = (url: string, ids: readonly string[]) =>
  waitFor(
    'the quotes under a checkpoint',
    async () =>
      (await Promise.all(ids.map((id) => fetch(`${url}/receipts/${id}/proof`).then((r) => r.status)))).every(
        (s) => s === 200,
      ),
    60_000,
  );

const readAll = async (topic: TopicName, partition: number): Promise<LogEntry[]> => {
  const from = (await log.retainedFrom(topic))[partition] ?? 0;
  return log.read(topic, partition, from);
};

beforeAll(async () => {
  kafka = { brokers: await testBrokers(), topicPrefix: `kt-${randomUUID().slice(0, 8)}` };
  log = new KafkaLog({ brokers: kafka.brokers.split(','), topicPrefix: kafka.topicPrefix });
  admin = new Kafka({ brokers: kafka.brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await logSink(log).write(world());
  const url = await startKafkaApi(kafka, join(dir.path, 'api'), apps, {
    RECEIPTS: 'true',
    RECEIPT_ORIGIN_NAME: 'tamper',
    CHECKPOINT_INTERVAL_MS: '300',
    MERGE_DELAY_MS: '1300',
  });
  for (const [i, id] of IDS.slice(0, 4).entries()) await quote(url, id, 20 + i);
  await proven(url, IDS.slice(0, 4));
  tlogEarlier = await readAll(TLOG, 0);
  await quote(url, IDS[4]!, 30);
  await proven(url, IDS);
  keptLatest = await (await fetch(`${url}/checkpoint`)).text();
  keys = await (await fetch(`${url}/keys`)).text();
  // Stopped, so the log holds still while it is tampered with (its last checkpoint is signed at stop).
  apps[0]!.child.kill('SIGTERM');
  await apps[0]!.exited;
  tlogIntact = await readAll(TLOG, 0);
  const d = decodeReceipt(receipts.get(IDS[0]!)!);
  if (!d.ok) throw new Error('receipt does not decode');
  origin = d.value.origin;
}, 240_000);

afterAll(async () => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  await admin?.disconnect();
  await log?.close();
  dir.remove();
});

/** `route-service replay verify <receipt> --keys keys.json [extra]` as the auditor runs it. */
const verify = (receipt: string, extra: Record<string, string> = {}) =>
  auditorReplay(
    kafka,
    ['verify', 'r.txt', '--keys', 'keys.json', ...Object.keys(extra).flatMap((f) => ['--checkpoint', f])],
    { files: { 'keys.json': keys, 'r.txt': receipt, ...extra } },
  );

const verifyId = (i: number, extra: Record<string, string> = {}) => verify(receipts.get(IDS[i]!)!, extra);

/** `route-service replay audit --verify-log` over every quote (the clock is pinned at T0). */
const auditLog = () =>
  auditorReplay(
    kafka,
    ['audit', '--from', String(T0 - 1), '--to', String(T0 + 1), '--verify-log', '--keys', 'k.json'],
    {
      files: { 'k.json': keys },
    },
  );

/** Remove every entry of a partition below `offset`: Kafka's deleteRecords, as an operator runs it. */
async function truncate(topic: TopicName, partition: number, offset: number): Promise<void> {
  const name = topicName(kafka.topicPrefix, topic);
  // kafkajs finds the partition's leader only from metadata it has loaded.
  await admin.fetchTopicMetadata({ topics: [name] });
  await admin.deleteTopicRecords({
    topic: name,
    partitions: [{ partition, offset: String(offset) }],
  });
}

/** The tlog truncated to its end and `entries` produced in its place. */
async function rewriteTlog(entries: readonly LogEntry[]): Promise<void> {
  await truncate(TLOG, 0, (await log.highWatermarks(TLOG))[0]!);
  await log.append(
    TLOG,
    entries.map((e) => ({ key: e.key, value: e.value })),
  );
}

/** Leaf `index` as the intact tlog lists it. */
function leafAt(index: number): LeafRef {
  for (const e of tlogIntact) {
    const parsed = parseTlogEntry(e.value);
    if (!parsed.ok || parsed.entry.type !== 'tlog_leaves') continue;
    const leaf = parsed.entry.leaves[index - parsed.entry.from];
    if (leaf !== undefined) return leaf;
  }
  throw new Error(`the tlog lists no leaf ${index}`);
}

/** Where a quote's journal record is. */
async function quoteRecord(id: string): Promise<LogEntry> {
  const p = partitionFor(id, await log.partitions('quotes'));
  const found = (await readAll('quotes', p)).find((e) => e.key === id);
  if (found === undefined) throw new Error(`no record of ${id}`);
  return found;
}

describe('receipts on Kafka against an operator with access to the brokers', () => {
  it('the untouched log verifies every receipt (replay included) and audits with no fault', async () => {
    const runs = await Promise.all(IDS.map((_, i) => verifyId(i, { 'kept.txt': keptLatest })));
    for (const [i, r] of runs.entries()) {
      expect(r.out, `${IDS[i]!}: ${r.err}`).toBe('verified\n');
      expect(r.code).toBe(0);
    }
    const audit = await auditLog();
    expect(audit.code, audit.err).toBe(0);
    expect(audit.err).toMatch(
      new RegExp(`log ${origin}: 5 leaves, \\d+ checkpoints, 5 leaves checked against the journal, 0 fault`),
    );
  });

  it('a forged receipt (its hash changed): bad_signature; a key replaced in /keys: unknown_key', async () => {
    const d = decodeReceipt(receipts.get(IDS[0]!)!);
    if (!d.ok) throw new Error('receipt does not decode');
    const sha256 = d.value.sha256.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const forged = await verify(encodeReceipt({ ...d.value, sha256 }));
    expect(forged.out, forged.err).toBe('failed: bad_signature\n');
    expect(forged.code).toBe(1);
    const other = signingKeyFromSeed(origin, Buffer.alloc(32, 9));
    const replaced = await auditorReplay(kafka, ['verify', 'r.txt', '--keys', 'other.json'], {
      files: {
        'other.json': JSON.stringify({ keys: [publishKey(other, 0, null)] }),
        'r.txt': receipts.get(IDS[0]!)!,
      },
    });
    expect(replaced.out, replaced.err).toBe('failed: unknown_key\n');
    expect(replaced.code).toBe(1);
  });

  it('two leaves swapped (the tlog truncated and rewritten): inclusion_failed; audit names the reordered leaves', async () => {
    // Leaves 0 and 1 trade places wherever their entries are; everything else is produced as it was.
    const swapped = tlogIntact.map((e) => {
      const parsed = parseTlogEntry(e.value);
      if (!parsed.ok || parsed.entry.type !== 'tlog_leaves') return e;
      const { from, leaves } = parsed.entry;
      const moved = leaves.map((l, i) => (from + i < 2 ? leafAt(1 - (from + i)) : l));
      return { ...e, value: encodeTlogEntry({ ...parsed.entry, leaves: moved }) };
    });
    expect(swapped.map((e) => e.value)).not.toEqual(tlogIntact.map((e) => e.value));
    await rewriteTlog(swapped);
    try {
      const r = await verifyId(3);
      expect(r.out, r.err).toBe('failed: inclusion_failed\n');
      expect(r.err).toMatch(/root is not the root/);
      const audit = await auditLog();
      expect(audit.code).toBe(1);
      expect(audit.err).toMatch(
        new RegExp(`LOG ${origin}: checkpoint of \\d leaves: .*\\(leaves changed, reordered or removed\\)`),
      );
    } finally {
      await rewriteTlog(tlogIntact);
    }
    expect((await verifyId(3)).out).toBe('verified\n');
  });

  it('the tlog rolled back to an earlier state: the later quote is not_in_log; a kept checkpoint shows the rollback', async () => {
    expect(tlogEarlier.length).toBeLessThan(tlogIntact.length);
    await rewriteTlog(tlogEarlier);
    try {
      const late = await verifyId(4);
      expect(late.out, late.err).toBe('failed: not_in_log\n');
      const kept = await verifyId(0, { 'kept.txt': keptLatest });
      expect(kept.out, kept.err).toBe('failed: inclusion_failed\n');
      expect(kept.err).toMatch(/rolled back/);
      // Without the kept checkpoint, an earlier quote verifies in the earlier log.
      expect((await verifyId(0)).out).toBe('verified\n');
    } finally {
      await rewriteTlog(tlogIntact);
    }
  });

  it('a journal record deleted (deleteRecords past it): not_in_log naming the leaf; audit says missing', async () => {
    const rec = await quoteRecord(IDS[0]!);
    await truncate('quotes', rec.partition, rec.offset + 1);
    const r = await verifyId(0);
    expect(r.out, r.err).toBe('failed: not_in_log\n');
    expect(r.err).toMatch(new RegExp(`lists leaf \\d+ for ${IDS[0]!}.*deleted`));
    const audit = await auditLog();
    expect(audit.code).toBe(1);
    expect(audit.err).toMatch(new RegExp(`LOG ${origin}: leaf \\d \\(quotes ${IDS[0]!}\\): missing`));
  });

  it('a journal record altered (the original deleted, an altered copy produced under its key): record_altered', async () => {
    const rec = await quoteRecord(IDS[1]!);
    const altered = rec.value.replace(
      /"calculatedAt":(\d+)/,
      (_, t: string) => `"calculatedAt":${Number(t) + 1}`,
    );
    expect(altered).not.toBe(rec.value);
    await truncate('quotes', rec.partition, rec.offset + 1);
    await log.append('quotes', [{ key: rec.key, value: altered }]);
    const r = await verifyId(1);
    expect(r.out, r.err).toBe('failed: record_altered\n');
    expect(r.code).toBe(1);
    const audit = await auditLog();
    expect(audit.err).toMatch(new RegExp(`LOG ${origin}: leaf \\d \\(quotes ${IDS[1]!}\\): altered`));
    // Quotes the operator left alone still verify.
    const untouched = await Promise.all([2, 3, 4].map((i) => quoteRecord(IDS[i]!)));
    const intact = untouched.filter((u) => u.partition !== rec.partition || u.offset > rec.offset);
    expect(intact.length).toBeGreaterThan(0);
    for (const u of intact) expect((await verifyId(IDS.indexOf(u.key))).out).toBe('verified\n');
  });
});
