import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTlogEntry } from '@app/audit';
import { SERVER_DEFAULTS } from '@app/config';
import { TLOG } from '@app/events';
import { EmbeddedLog, logSink } from '@app/event-log';
import {
  fromBase64,
  parseCheckpointText,
  publishKey,
  signingKeyFromSeed,
  verifyConsistency,
  verifyInclusion,
  leafHash,
  type Checkpoint,
} from '@app/transparency';
import { startApiServer, type ApiServer } from '../../apps/api/src/bootstrap';
import { PinnedClock } from '../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp, type ApiHost } from '../../apps/api/src/compose';
import { BASE_CONFIG } from '../api/support/server';
import { world } from '../api/support/world';
import { T0 } from '../support/records';
import { spawnReplay } from './support/run-replay';

// docs/audit.md "Retention" on the embedded log: the service writes a prefix of its tree every 4
// leaves; a retention pass drops the tlog entries before the newest one; a restart rebuilds the
// tree from it. A new receipt verifies, a checkpoint kept from before the cut is still extended
// (its consistency proof verifies, `replay verify --checkpoint` accepts it), and a removed leaf's
// proof is a 404 that says it is past retention.
const ORIGIN = SERVER_DEFAULTS.receipts.origin;
const key = signingKeyFromSeed(ORIGIN, Buffer.alloc(32, 7));
const work = mkdtempSync(join(tmpdir(), 'tlog-retention-'));
const dataDir = join(work, 'data');
const receipts = new Map<string, string>();
let host: ApiHost;
let kept: string;
let tlogRetention: { segmentsRemoved: number } | undefined;
/** The first leaf the tlog still lists: the prefix it starts with (the retention horizon is a segment's start). */
let firstListed: number;

/** The API on `dataDir` with a tiny byte bound (every sealed segment removable) and small segments. */
async function start(): Promise<ApiHost> {
  const h = await openFeed(
    { kafkaBrokers: null, dataDir, retention: { maxAgeMs: null, maxBytes: 1, segmentBytes: 1024 } },
    { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) },
  );
  await waitCaughtUp(h);
  h.server = await startApiServer({
    config: {
      ...BASE_CONFIG,
      receipts: { ...SERVER_DEFAULTS.receipts, attach: true, prefixEveryLeaves: 4 },
    },
    feed: h.feed,
    log: h.log,
    clock: new PinnedClock(T0),
    logger: false,
    receiptKeys: { key, published: [publishKey(key, 0, null)] },
  });
  return h;
}

const server = (): ApiServer => host.server!;

async function quote(id: string): Promise<void> {
  const res = await fetch(`${server().url}/route?from=USDT&to=BTC&amountIn=${100 + receipts.size}`, {
    headers: { 'x-request-id': id },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  receipts.set(id, res.headers.get('x-quote-receipt')!);
  writeFileSync(join(work, `${id}.receipt`), `${res.headers.get('x-quote-receipt')!}\n`);
}

async function settle(): Promise<void> {
  await server().journal.flush();
  await server().tlog!.checkpoint();
}

const latest = async (): Promise<{ text: string; cp: Checkpoint }> => {
  const text = await (await fetch(`${server().url}/checkpoint`)).text();
  return { text, cp: parseCheckpointText(text.slice(0, text.lastIndexOf('\n\n') + 1))! };
};

/** The origin's tlog entries as the log now holds them, by type and size. */
async function tlogShape(): Promise<string[]> {
  const entries = await host.log.read(TLOG, 0, 0);
  return entries.map((e) => {
    const p = parseTlogEntry(e.value);
    if (!p.ok) return 'bad';
    if (p.entry.type === 'tlog_leaves') return `leaves ${p.entry.from}+${p.entry.leaves.length}`;
    if (p.entry.type === 'tlog_prefix') return `prefix ${p.entry.size}`;
    return 'checkpoint';
  });
}

/** `route-service replay <args>` in its own process, as an auditor runs it. */
const replay = (args: readonly string[]) => spawnReplay(work, args);

beforeAll(async () => {
  const seed = new EmbeddedLog({ dataDir });
  await logSink(seed).write(world());
  await seed.close();
  host = await start();
  for (let i = 1; i <= 8; i++) {
    await quote(`r-${i}`);
    if (i % 2 === 0) await settle();
    if (i === 2) kept = (await latest()).text;
  }
  writeFileSync(join(work, 'kept.txt'), kept);
  writeFileSync(join(work, 'keys.json'), await (await fetch(`${server().url}/keys`)).text());
  const results = (host.log as EmbeddedLog).applyRetention(Date.now());
  tlogRetention = results.find((r) => r.topic === TLOG);
  await closeHost(host);
  host = await start();
}, 60_000);

afterAll(async () => {
  await closeHost(host);
  rmSync(work, { recursive: true, force: true });
});

describe('retention of the transparency log', () => {
  it('the tlog keeps only the newest prefix and what follows it; a restart rebuilds the tree from it', async () => {
    expect(tlogRetention?.segmentsRemoved).toBeGreaterThan(0);
    const shape = await tlogShape();
    // Below the horizon the log keeps the newest prefix there and all that follows it.
    expect(shape[0]).toMatch(/^prefix [48]$/);
    firstListed = Number(shape[0]!.split(' ')[1]);
    expect(
      shape.filter((e) => e.startsWith('leaves')).every((e) => Number(/\d+/.exec(e)![0]) >= firstListed),
    ).toBe(true);
    expect(shape).toContain('prefix 8');
    const { cp } = await latest();
    expect(cp.size).toBe(8);
    // No leaves after the newest prefix: the service reads all the log holds, from the oldest prefix.
    expect(server().tlog!.hashes.firstLeaf).toBe(firstListed);
  });

  it('a new receipt after the restart is proven and verifies end to end, the kept checkpoint with it', async () => {
    await quote('r-9');
    await settle();
    const proof = (await (await fetch(`${server().url}/receipts/r-9/proof`)).json()) as {
      leafIndex: number;
      treeSize: number;
      inclusionPath: string[];
    };
    expect(proof.leafIndex).toBe(8);
    const { cp } = await latest();
    const record = (await host.log.read('quotes', 0, 0)).concat(
      ...(await Promise.all([1, 2, 3].map((p) => host.log.read('quotes', p, 0)))),
    );
    const r9 = record.find((e) => e.key === 'r-9')!;
    const path = proof.inclusionPath.map((h) => fromBase64(h, 32)!);
    expect(verifyInclusion(8, cp.size, leafHash(Buffer.from(r9.value)), path, cp.root)).toEqual({ ok: true });
    const r = await replay([
      'verify',
      'r-9.receipt',
      '--keys',
      'keys.json',
      '--checkpoint',
      'kept.txt',
      '--data-dir',
      dataDir,
    ]);
    expect(r.out, r.err).toBe('verified\n');
    expect(r.code).toBe(0);
  });

  it('a checkpoint kept from before the cut is still extended by the log: its consistency proof verifies', async () => {
    const before = parseCheckpointText(kept.slice(0, kept.lastIndexOf('\n\n') + 1))!;
    expect(before.size).toBe(2);
    const { cp } = await latest();
    const res = await fetch(`${server().url}/checkpoint/consistency?from=2&to=${cp.size}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { consistencyPath: string[] };
    const path = body.consistencyPath.map((h) => fromBase64(h, 32)!);
    expect(verifyConsistency(2, cp.size, before.root, cp.root, path)).toEqual({ ok: true });
    // A size no checkpoint was signed at, below the cut: gone, and said so.
    const gone = await fetch(`${server().url}/checkpoint/consistency?from=3&to=${cp.size}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: string }).error).toMatch(/past retention/);
  });

  it("a removed leaf's proof is a 404 saying it is past retention; replay verify says where the tlog starts", async () => {
    const res = await fetch(`${server().url}/receipts/r-1/proof`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain(
      `before leaf ${firstListed} is past retention`,
    );
    const r = await replay(['verify', 'r-1.receipt', '--keys', 'keys.json', '--data-dir', dataDir]);
    expect(r.out, r.err).toBe('failed: not_in_log\n');
    expect(r.err).toContain(`from leaf ${firstListed} (the leaves before it are past the tlog's retention)`);
  });

  it('audit --verify-log checks the kept leaves and every checkpoint the tlog holds: no fault', async () => {
    const r = await replay([
      'audit',
      '--from',
      '0',
      '--to',
      String(2 * T0),
      '--verify-log',
      '--keys',
      'keys.json',
      '--data-dir',
      dataDir,
    ]);
    expect(r.err).toMatch(
      new RegExp(
        `log ${ORIGIN}: 9 leaves, \\d+ checkpoints, ${9 - firstListed} leaves checked against the journal, 0 fault`,
      ),
    );
  });
});
