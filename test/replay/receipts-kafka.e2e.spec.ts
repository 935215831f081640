import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTlogEntry } from '@app/audit';
import { TLOG } from '@app/events';
import { KafkaLog, logSink } from '@app/event-log';
import { decodeReceipt, encodeReceipt, leafHash } from '@app/transparency';
import { T0, tempDir, waitFor } from '@test/support';
import { world } from '../api/support/world';
import { testBrokers } from '../kafka/broker';
import type { App } from '../storage/support/processes';
import { auditorReplay, startKafkaApi, type SharedKafka } from './support/kafka-replicas';

// Issue 29 on Kafka: two API replicas, each its own origin, sign receipts and checkpoints into one
// Kafka log; an auditor on another machine (an empty directory, KAFKA_BROKERS, the topic prefix
// and the replicas' public keys, nothing else) verifies receipts from both end to end. Then the
// log is tampered the way an operator with write access to the brokers could: caught, named.
const dir = tempDir('receipts-kafka');
const apps: App[] = [];
let brokers: string;
let topicPrefix: string;
let log: KafkaLog;
const urls: string[] = [];
const receipts = new Map<string, string>();

const kafka = (): SharedKafka => ({ brokers, topicPrefix });

const startApi = (name: string): Promise<string> =>
  startKafkaApi(kafka(), join(dir.path, name), apps, {
    RECEIPTS: 'true',
    RECEIPT_ORIGIN_NAME: name,
    CHECKPOINT_INTERVAL_MS: '300',
    MERGE_DELAY_MS: '1300',
  });

/** `route-service replay <args>` in an empty directory with the brokers, the prefix and `files`. */
const auditor = (
  args: readonly string[],
  files: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> => auditorReplay(kafka(), args, { files });

const keyFiles = (): Promise<Record<string, string>> =>
  Promise.all(urls.map(async (u) => (await fetch(`${u}/keys`)).text())).then((texts) =>
    Object.fromEntries(texts.map((t, i) => [`keys-${i}.json`, t])),
  );

beforeAll(async () => {
  brokers = await testBrokers();
  topicPrefix = `rk-${randomUUID().slice(0, 8)}`;
  log = new KafkaLog({ brokers: brokers.split(','), topicPrefix });
  await logSink(log).write(world());
  urls.push(...(await Promise.all([startApi('replica-a'), startApi('replica-b')])));
  for (let i = 0; i < 6; i++) {
    const id = `rk-${i}-${randomUUID().slice(0, 8)}`;
    const res = await fetch(`${urls[i % 2]!}/route?from=USDT&to=BTC&amountIn=${20 + i}`, {
      headers: { 'x-request-id': id },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    receipts.set(id, res.headers.get('x-quote-receipt')!);
  }
  // Each replica proves its quotes once a checkpoint covers them (every 300 ms here).
  await waitFor(
    'every quote under a checkpoint of its replica',
    async () =>
      (
        await Promise.all(
          [...receipts.keys()].map((id, i) =>
            fetch(`${urls[i % 2]!}/receipts/${id}/proof`).then((r) => r.status),
          ),
        )
      ).every((s) => s === 200),
    60_000,
  );
}, 240_000);

afterAll(async () => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  await log?.close();
  dir.remove();
});

describe('receipts of two replicas on Kafka, verified from another machine', () => {
  it('verifies every receipt of both origins with KAFKA_BROKERS and the public keys alone', async () => {
    const files = await keyFiles();
    const keys = Object.keys(files).flatMap((f) => ['--keys', f]);
    const runs = await Promise.all(
      [...receipts.entries()].map(([id, r]) =>
        auditor(['verify', `${id}.txt`, ...keys], { ...files, [`${id}.txt`]: r }),
      ),
    );
    for (const r of runs) {
      expect(r.out, r.err).toBe('verified\n');
      expect(r.code).toBe(0);
    }
    const origins = new Set(
      [...receipts.values()].map((r) => {
        const d = decodeReceipt(r);
        return d.ok ? d.value.origin : 'undecodable';
      }),
    );
    expect([...origins].sort()).toEqual(['route-service/replica-a', 'route-service/replica-b']);
  });

  it('a forged receipt is bad_signature; a leaf rewritten in the tlog is inclusion_failed and audit --verify-log names it', async () => {
    const files = await keyFiles();
    const keys = Object.keys(files).flatMap((f) => ['--keys', f]);
    const [id, header] = [...receipts.entries()][0]!;
    const decoded = decodeReceipt(header);
    if (!decoded.ok) throw new Error('receipt does not decode');
    const forged = encodeReceipt({ ...decoded.value, bytes: decoded.value.bytes + 1 });
    const bad = await auditor(['verify', 'forged.txt', ...keys], { ...files, 'forged.txt': forged });
    expect(bad.out, bad.err).toBe('failed: bad_signature\n');

    // Someone with write access to the brokers appends another leaf 0 for replica-a.
    const origin = decoded.value.origin;
    await log.append(TLOG, [
      {
        key: origin,
        value: encodeTlogEntry({
          type: 'tlog_leaves',
          origin,
          from: 0,
          leaves: [{ topic: 'quotes', key: id, hash: leafHash(Buffer.from('{"forged":true}')) }],
        }),
      },
    ]);
    const tampered = await auditor(['verify', 'r.txt', ...keys], { ...files, 'r.txt': header });
    expect(tampered.out, tampered.err).toBe('failed: inclusion_failed\n');
    expect(tampered.err).toMatch(/leaf 0 written twice with different hashes/);
    const audit = await auditor(
      ['audit', '--from', String(T0 - 1), '--to', String(T0 + 1), '--verify-log', ...keys],
      files,
    );
    expect(audit.code).toBe(1);
    expect(audit.err).toMatch(new RegExp(`LOG ${origin}: leaf 0 written twice`));
    expect(audit.err).toMatch(
      /log route-service\/replica-b: \d+ leaves, \d+ checkpoints, \d+ leaves checked against the journal, 0 fault/,
    );
  });
});
