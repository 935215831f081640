/**
 * The transparency log as the service runs it (OriginLog on the embedded log, fsync 'interval'):
 * the cost of one checkpoint round (the journal's partitions fdatasync'd, the new leaves and the
 * signed checkpoint appended to the tlog topic and synced) after 1,000 journal records, wall and
 * CPU; then the restart cost of an origin whose tlog holds 1,000,000 leaves (the tree rebuilt
 * from it, every checkpoint checked) and the tlog's bytes per leaf; then the same origin grown by
 * 300,000 leaves with a prefix written at 1,100,000 (docs/audit.md "Retention"), and its restart,
 * which reads from that prefix on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OriginLog } from '@app/audit';
import { EmbeddedLog } from '@app/event-log';
import { TLOG } from '@app/events';
import { signingKeyFromSeed } from '@app/transparency';
import { quantile, type BenchRow } from './bench-row';

const RECORDS_PER_ROUND = 1_000;
const ROUNDS = 20;
const RESTART_LEAVES = 1_000_000;
/** A journal record of the default size (hash and length, no response): about 410 bytes. */
const record = (i: number): string =>
  JSON.stringify({ v: 2, type: 'quote', requestId: `bench-${i}`, pad: 'x'.repeat(340) });

export async function benchTlogLog(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string) =>
    rows.push({ scenario: 'tlog', metric, value, unit });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-tlog-'));
  const key = signingKeyFromSeed('route-service/bench', Buffer.alloc(32, 3));
  try {
    let log = new EmbeddedLog({ dataDir, fsync: 'interval' });
    let tlog = await OriginLog.open({ log, key, mergeDelayMs: 10_000, now: () => Date.now() });
    const wall: number[] = [];
    const cpu: number[] = [];
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const batch = Array.from({ length: RECORDS_PER_ROUND }, () => ({
        key: `bench-${next}`,
        value: record(next++),
      }));
      await log.append('quotes', batch);
      tlog.appended('quotes', batch);
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await tlog.checkpoint();
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    row('checkpoint round after 1,000 records (sync, tlog append, sign) wall p50', quantile(wall, 0.5), 'ms');
    row('checkpoint round after 1,000 records wall p99', quantile(wall, 0.99), 'ms');
    row('checkpoint round after 1,000 records CPU p50', quantile(cpu, 0.5), 'ms');

    // Grow the tree to 1M leaves (tlog only: the journal records themselves are not needed to
    // rebuild it), a checkpoint every 100,000, then time a restart.
    const template = { key: 'x', value: record(0) };
    while (tlog.size < RESTART_LEAVES) {
      const n = Math.min(100_000, RESTART_LEAVES - tlog.size);
      tlog.appended(
        'quotes',
        Array.from({ length: n }, (_, i) => ({ ...template, key: `g-${tlog.size + i}` })),
      );
      await tlog.checkpoint();
    }
    const tlogBytes = await tlogSize(log);
    tlog.close();
    await log.close();
    log = new EmbeddedLog({ dataDir, fsync: 'interval' });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    tlog = await OriginLog.open({ log, key, mergeDelayMs: 10_000, now: () => Date.now() });
    row('restart: 1M-leaf tree rebuilt from the tlog', performance.now() - t0, 'ms');
    // The process's CPU too: a shared machine's load stretches the wall time.
    row('restart: 1M-leaf tree rebuilt from the tlog, CPU', cpuMs(c0), 'ms');
    row('tlog bytes per leaf', tlogBytes / tlog.size, 'bytes');
    tlog.close();
    await log.close();

    // A prefix at 1,100,000 leaves (due: a million since the last, none), then 200,000 more: a
    // restart reads from a prefix when at least half the proof lookup's 250,000 keys follow it.
    log = new EmbeddedLog({ dataDir, fsync: 'interval' });
    const withPrefix = {
      log,
      key,
      mergeDelayMs: 10_000,
      now: () => Date.now(),
      prefixEveryLeaves: 1_000_000,
    };
    tlog = await OriginLog.open(withPrefix);
    for (let round = 0; round < 3; round++) {
      const base = tlog.size;
      tlog.appended(
        'quotes',
        Array.from({ length: 100_000 }, (_, i) => ({ ...template, key: `p-${base + i}` })),
      );
      await tlog.checkpoint();
    }
    const before = await tlogSize(log);
    tlog.close();
    await log.close();
    log = new EmbeddedLog({ dataDir, fsync: 'interval' });
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    tlog = await OriginLog.open({ ...withPrefix, log });
    row('restart: 1.3M-leaf tree from its prefix 200,000 leaves back', performance.now() - t1, 'ms');
    row('restart: 1.3M-leaf tree from its prefix, CPU', cpuMs(c1), 'ms');
    row(
      'prefix of the 1.1M-leaf tree (every checkpoint size below it kept)',
      prefixBytes(await tlogTexts(log)),
      'bytes',
    );
    if (tlog.hashes.firstLeaf !== 1_100_000 || before <= tlogBytes) throw new Error('no prefix was read');
    tlog.close();
    await log.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
}

async function tlogSize(log: EmbeddedLog): Promise<number> {
  return (await tlogTexts(log)).reduce((n, t) => n + Buffer.byteLength(t), 0);
}

async function tlogTexts(log: EmbeddedLog): Promise<string[]> {
  const out: string[] = [];
  for (let from = 0; ;) {
    const batch = await log.read(TLOG, 0, from, 256);
    if (batch.length === 0) return out;
    for (const e of batch) out.push(e.value);
    from = batch[batch.length - 1]!.offset + 1;
  }
}

const prefixBytes = (texts: readonly string[]): number =>
  texts.filter((t) => t.includes('"type":"tlog_prefix"')).reduce((n, t) => n + Buffer.byteLength(t), 0);
