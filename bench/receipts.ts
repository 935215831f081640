/**
 * `npm run bench -- receipts [--baseline=<dir>]`: GET /route on the product as users start it
 * (bench/http-service.ts) with `RECEIPTS=true` (a signed receipt per answer, the transparency log
 * over the journal, a checkpoint every 2 s) against the same build without, under autocannon in a
 * process of its own; with --baseline, the same two of the built checkout <dir> too (before and
 * after in one run). Cells alternate between the services, round after round (the order
 * rotating), so a change of machine load falls on all alike. Per service: the median over the
 * rounds of req/s, p50, p99 and server CPU per request (/proc utime+stime over the cell); and the
 * per-round ratios.
 * BENCH_HTTP_CONNECTIONS (16), BENCH_HTTP_WARMUP (8 s), BENCH_HTTP_SECONDS (5), BENCH_HTTP_ROUNDS (5).
 */
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { quantile, type BenchRow } from './bench-row';
import { ask } from './child-io';
import { cpuSeconds } from './cpu';
import { HTTP_ROUTE } from './http';
import type { LoadFigures, LoadOrder } from './http-client';
import { startService, type Service } from './http-service';
import { forkHeld, heldTempDir, stopHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
type Cell = LoadFigures & { readonly cpuUs: number };

const setting = (name: string, fallback: number): number => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a whole number above 0`);
  return v;
};

export async function benchReceipts(baseline: string | null): Promise<BenchRow[]> {
  const connections = setting('BENCH_HTTP_CONNECTIONS', 16);
  const seconds = setting('BENCH_HTTP_SECONDS', 5);
  const rounds = setting('BENCH_HTTP_ROUNDS', 5);
  const warmup = setting('BENCH_HTTP_WARMUP', 8);
  const { dir, remove: removeDir } = heldTempDir('bench-receipts-');
  const services: Service[] = [];
  let client: ChildProcess | null = null;
  try {
    const recording = join(ROOT, 'replay-data');
    const builds = [{ prefix: '', root: ROOT }];
    if (baseline !== null) builds.push({ prefix: 'baseline, ', root: resolve(baseline) });
    for (const b of builds)
      for (const [name, env] of [
        ['receipts', { RECEIPTS: 'true' }],
        ['none', {}],
      ] as const) {
        const label = `${b.prefix}${name}`;
        const s = await startService(label, b.root, recording, join(dir, `data-${services.length}`), env);
        console.error(`receipts: ${label}: ${s.url} (pid ${s.pid}, ${b.root})`);
        services.push(s);
      }
    client = forkHeld('receipts load client', join(__dirname, 'http-client.js'), [], { stdio: 'inherit' });
    const run = async (s: Service, secs: number): Promise<Cell> => {
      const order: LoadOrder = { url: s.url, path: HTTP_ROUTE, vary: false, connections, seconds: secs };
      const cpu0 = cpuSeconds(s.pid);
      const f = await ask<LoadFigures>(client!, order);
      if (f.failed > 0 || f.ok === 0) throw new Error(`${s.label}: ${f.failed} failed, ${f.ok} answered`);
      return { ...f, cpuUs: ((cpuSeconds(s.pid) - cpu0) * 1e6) / f.ok };
    };
    for (const s of services) await run(s, warmup);
    const cells = new Map<string, Cell[]>();
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < services.length; k++) {
        const s = services[(k + r) % services.length]!;
        cells.set(s.label, [...(cells.get(s.label) ?? []), await run(s, seconds)]);
      }
    const rows: BenchRow[] = [];
    const row = (metric: string, value: number, unit: string) =>
      rows.push({ scenario: 'receipts', metric, value, unit });
    const median = (xs: readonly number[]): number => quantile(xs, 0.5);
    for (const s of services) {
      const c = cells.get(s.label)!;
      row(`${s.label}: GET /route req/s (${connections} conns)`, median(c.map((f) => f.rps)), 'req/s');
      row(`${s.label}: GET /route p50`, median(c.map((f) => f.p50)), 'ms');
      row(`${s.label}: GET /route p99`, median(c.map((f) => f.p99)), 'ms');
      row(`${s.label}: GET /route server CPU`, median(c.map((f) => f.cpuUs)), 'us/request');
    }
    const ratios = (name: string, a: readonly Cell[], b: readonly Cell[]): void => {
      row(`${name}: req/s`, median(a.map((f, i) => f.rps / b[i]!.rps)), 'x');
      row(`${name}: server CPU`, median(a.map((f, i) => f.cpuUs / b[i]!.cpuUs)), 'x us/request');
      // What receipts add, in us: the difference of cells run next to each other.
      if (name.includes('/ none'))
        row(`${name}: server CPU added`, median(a.map((f, i) => f.cpuUs - b[i]!.cpuUs)), 'us/request');
    };
    for (const b of builds)
      ratios(`${b.prefix}receipts / none`, cells.get(`${b.prefix}receipts`)!, cells.get(`${b.prefix}none`)!);
    if (baseline !== null)
      for (const name of ['receipts', 'none'])
        ratios(`this / baseline, ${name}`, cells.get(name)!, cells.get(`baseline, ${name}`)!);
    return rows;
  } finally {
    if (client !== null) await stopHeld(client);
    for (const s of services.reverse()) await s.stop();
    await removeDir();
  }
}
