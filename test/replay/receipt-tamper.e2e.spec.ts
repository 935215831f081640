import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLOG, TOPICS, type TopicName } from '@app/events';
import { EmbeddedLog, type AppendEntry, type LogEntry } from '@app/event-log';
import { parseTlogEntry, encodeTlogEntry } from '@app/audit';
import { SERVER_DEFAULTS } from '@app/config';
import { decodeReceipt, encodeReceipt, publishKey, signingKeyFromSeed } from '@app/transparency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../api/support/server';
import { T0 } from '../support/records';
import { spawnReplay } from './support/run-replay';

// Issue 29's tamper tests on the embedded log, through the real CLI (`route-service replay
// verify`): quotes served with receipts, the log copied, then each copy rewritten the way an
// operator with write access could (every frame rewritten whole, so checksums hold) and each
// rewrite caught with its named reason; the untouched copy verifies every receipt.
const Q = '/route?from=USDT&to=BTC&strategy=split_optimal&bridges=&amountIn=';
const IDS = ['t-1', 't-2', 't-3', 't-4', 't-5'];
const work = mkdtempSync(join(tmpdir(), 'tamper-'));
const receipts = new Map<string, string>();
let s: TestServer;
/** The log after every quote and checkpoint; the log as of the first checkpoint (before t-5). */
const intact = join(work, 'intact');
const earlier = join(work, 'earlier');
const keysFile = join(work, 'keys.json');
const keptFile = join(work, 'kept-checkpoint.txt');

async function quote(id: string, amount: number): Promise<void> {
  const res = await fetch(`${s.url}${Q}${amount}`, { headers: { 'x-request-id': id } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  receipts.set(id, res.headers.get('x-quote-receipt')!);
  writeFileSync(join(work, `${id}.receipt`), `${res.headers.get('x-quote-receipt')!}\n`);
}

async function settle(): Promise<void> {
  await s.server.journal.flush();
  await s.server.tlog!.checkpoint();
}

beforeAll(async () => {
  s = await startTestServer({ receipts: { ...SERVER_DEFAULTS.receipts, attach: true } });
  for (const [i, id] of IDS.slice(0, 4).entries()) await quote(id, 100 + i);
  await settle();
  cpSync(s.dataDir, earlier, { recursive: true });
  await quote('t-5', 200);
  await settle();
  writeFileSync(keptFile, await (await fetch(`${s.url}/checkpoint`)).text());
  writeFileSync(keysFile, await (await fetch(`${s.url}/keys`)).text());
  cpSync(s.dataDir, intact, { recursive: true });
}, 60_000);

afterAll(async () => {
  await s?.close();
  rmSync(work, { recursive: true, force: true });
});

/** `route-service replay <args>` in its own process, as an auditor runs it. */
const replay = (args: readonly string[]) => spawnReplay(work, args);

/** `route-service replay verify <receipt> --keys <file> --data-dir <dir> [...]`. */
const verify = (dir: string, receipt: string, extra: readonly string[] = []) =>
  replay(['verify', receipt, '--keys', keysFile, '--data-dir', dir, ...extra]);

/** `route-service replay audit --verify-log` over every quote (the clock is pinned at T0). */
const auditLog = (dir: string) =>
  replay([
    'audit',
    '--from',
    '0',
    '--to',
    String(2 * T0),
    '--verify-log',
    '--keys',
    keysFile,
    '--data-dir',
    dir,
  ]);

/** A copy of `intact` with every topic rewritten through `edit` (frames rewritten whole). */
async function rewrite(
  name: string,
  edit: (topic: TopicName, entries: LogEntry[]) => AppendEntry[],
): Promise<string> {
  const dst = join(work, name);
  const from = new EmbeddedLog({ dataDir: intact, readOnly: true });
  const to = new EmbeddedLog({ dataDir: dst });
  for (const topic of TOPICS) {
    const entries: LogEntry[] = [];
    const hwm = await from.highWatermarks(topic);
    for (let p = 0; p < hwm.length; p++) entries.push(...(await from.read(topic, p, 0)));
    const out = edit(topic, entries);
    if (out.length > 0) await to.append(topic, out);
  }
  await from.close();
  await to.close();
  return dst;
}

const same = (_topic: TopicName, entries: LogEntry[]): AppendEntry[] =>
  entries.map((e) => ({ key: e.key, value: e.value }));

describe('replay verify against a tampered embedded log', () => {
  it('an untouched log verifies every receipt, replay included', async () => {
    const runs = await Promise.all(
      IDS.map((id) => verify(intact, `${id}.receipt`, ['--checkpoint', keptFile])),
    );
    for (const [i, r] of runs.entries()) {
      expect(r.out, `${IDS[i]!}: ${r.err}`).toBe('verified\n');
      expect(r.code).toBe(0);
    }
  });

  it("--keys as a URL: the service's /keys verifies; a key server sending more than a key list is refused unread (exit 2)", async () => {
    const fromUrl = await replay(['verify', 't-1.receipt', '--keys', `${s.url}/keys`, '--data-dir', intact]);
    expect(fromUrl.out, fromUrl.err).toBe('verified\n');
    expect(fromUrl.code).toBe(0);
    // 1 MiB in 64 KiB pieces, with and without a declared length: the auditor stops at 256 KiB.
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const hostile = createServer((req, res) => {
      if (req.url === '/declared') res.setHeader('content-length', String(16 * piece.length));
      for (let i = 0; i < 16; i++) res.write(piece);
      res.end();
    });
    await new Promise<void>((ok) => hostile.listen(0, '127.0.0.1', ok));
    try {
      const base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      for (const path of ['/chunked', '/declared']) {
        const r = await replay(['verify', 't-1.receipt', '--keys', `${base}${path}`, '--data-dir', intact]);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toContain(`--keys ${base}${path}: larger than 262144 bytes`);
      }
    } finally {
      hostile.closeAllConnections();
      await new Promise((ok) => hostile.close(ok));
    }
  });

  it('a receipt, key list or kept checkpoint that never ends is read only up to its bound (exit 2)', async () => {
    // /dev/zero states a size of 0 and never ends: a stated size is no bound.
    const cases: [string[], string][] = [
      [
        ['verify', '/dev/zero', '--keys', 'keys.json'],
        'receipt: cannot read /dev/zero: larger than 262144 bytes',
      ],
      [
        ['verify', 't-1.receipt', '--keys', '/dev/zero'],
        '--keys: cannot read /dev/zero: larger than 262144 bytes',
      ],
      [
        ['verify', 't-1.receipt', '--keys', 'keys.json', '--checkpoint', '/dev/zero'],
        '--checkpoint: cannot read /dev/zero: larger than 65536 bytes',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await replay([...args, '--data-dir', intact]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(message);
    }
  });

  it('a journal record altered: record_altered', async () => {
    const dir = await rewrite('altered', (topic, entries) =>
      same(topic, entries).map((e) =>
        topic === 'quotes' && e.key === 't-2'
          ? {
              ...e,
              value: e.value.replace(
                /"calculatedAt":(\d+)/,
                (_, t: string) => `"calculatedAt":${Number(t) + 1}`,
              ),
            }
          : e,
      ),
    );
    const r = await verify(dir, 't-2.receipt');
    expect(r.out, r.err).toBe('failed: record_altered\n');
    expect(r.code).toBe(1);
    expect((await verify(dir, 't-1.receipt')).code).toBe(0);
  });

  it('the recorded books changed under a record: replay_differs', async () => {
    const dir = await rewrite('books', (topic, entries) =>
      same(topic, entries).map((e) =>
        topic === 'books'
          ? {
              ...e,
              value: e.value.replace(
                /"asks":\[\[(\d)/,
                (_, d: string) => `"asks":[[${d === '9' ? '8' : Number(d) + 1}`,
              ),
            }
          : e,
      ),
    );
    const r = await verify(dir, 't-1.receipt');
    expect(r.out, r.err).toBe('failed: replay_differs\n');
  });

  it('a journal record deleted: not_in_log, naming the leaf that lists it', async () => {
    const dir = await rewrite('deleted', (topic, entries) =>
      same(topic, entries).filter((e) => !(topic === 'quotes' && e.key === 't-3')),
    );
    const r = await verify(dir, 't-3.receipt');
    expect(r.out, r.err).toBe('failed: not_in_log\n');
    expect(r.err).toMatch(/lists leaf \d+ for t-3.*deleted/);
  });

  it("two records swapped in the log's order: inclusion_failed (the signed root no longer fits)", async () => {
    const dir = await rewrite('swapped', (topic, entries) =>
      same(topic, entries).map((e) => {
        if (topic !== TLOG) return e;
        const parsed = parseTlogEntry(e.value);
        if (!parsed.ok || parsed.entry.type !== 'tlog_leaves' || parsed.entry.leaves.length < 2) return e;
        const [a, b, ...rest] = parsed.entry.leaves;
        return { ...e, value: encodeTlogEntry({ ...parsed.entry, leaves: [b!, a!, ...rest] }) };
      }),
    );
    const r = await verify(dir, 't-4.receipt');
    expect(r.out, r.err).toBe('failed: inclusion_failed\n');
    expect(r.err).toMatch(/root is not the root/);
  });

  it('the log rolled back to an earlier state: the later quote is not_in_log; a kept checkpoint shows the rollback', async () => {
    const late = await verify(earlier, 't-5.receipt');
    expect(late.out, late.err).toBe('failed: not_in_log\n');
    const kept = await verify(earlier, 't-1.receipt', ['--checkpoint', keptFile]);
    expect(kept.out, kept.err).toBe('failed: inclusion_failed\n');
    expect(kept.err).toMatch(/rolled back/);
    // Without the kept checkpoint, an earlier quote still verifies in the earlier log.
    expect((await verify(earlier, 't-1.receipt')).code).toBe(0);
  });

  it('a forged receipt (its hash changed): bad_signature; a key replaced in /keys: unknown_key', async () => {
    const decoded = decodeReceipt(receipts.get('t-1')!);
    if (!decoded.ok) throw new Error('receipt does not decode');
    const forged = {
      ...decoded.value,
      sha256: decoded.value.sha256.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    };
    writeFileSync(join(work, 'forged.receipt'), encodeReceipt(forged));
    const r = await verify(intact, 'forged.receipt');
    expect(r.out, r.err).toBe('failed: bad_signature\n');

    const other = signingKeyFromSeed(SERVER_DEFAULTS.receipts.origin, Buffer.alloc(32, 9));
    const replaced = join(work, 'replaced-keys.json');
    writeFileSync(replaced, JSON.stringify({ keys: [publishKey(other, 0, null)] }));
    const child = await replay(['verify', 't-1.receipt', '--keys', replaced, '--data-dir', intact]);
    expect(child.out).toBe('failed: unknown_key\n');
    expect(child.code).toBe(1);
  });

  it('audit --verify-log names the missing, altered and reordered leaves; the untouched log has none', async () => {
    const ok = await auditLog(intact);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).toMatch(
      /log route-service\/main: 5 leaves, 2 checkpoints, 5 leaves checked against the journal, 0 fault/,
    );
    const deleted = await auditLog(join(work, 'deleted'));
    expect(deleted.code).toBe(1);
    expect(deleted.err).toMatch(/LOG route-service\/main: leaf \d \(quotes t-3\): missing/);
    const altered = await auditLog(join(work, 'altered'));
    expect(altered.err).toMatch(/LOG route-service\/main: leaf \d \(quotes t-2\): altered/);
    const swapped = await auditLog(join(work, 'swapped'));
    expect(swapped.code).toBe(1);
    expect(swapped.err).toMatch(
      /LOG route-service\/main: checkpoint of \d leaves: .*\(leaves changed, reordered or removed\)/,
    );
  });
});
