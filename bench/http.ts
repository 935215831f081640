/**
 * `npm run bench -- http [--baseline=<dir>]`: the product as users start it (bench/http-service.ts)
 * under autocannon in a process of its own (bench/http-client.ts). Two services of this checkout:
 * on replay-data/ (order rules on every market) and on a copy with the rules removed; with
 * --baseline, the same two of the built checkout <dir> too, on the same two recordings. Each is
 * loaded with GET /health, GET /route with one query, and GET /route with a new amount every
 * request, in rounds that visit every endpoint and service in turn (the order of the services
 * rotating), so a change of machine load falls on all alike. Reports per cell the median over the
 * rounds of req/s, p50 and p99, and the ratios route / health and rules / no rules (the median of
 * the per-round ratios: cells next to each other in time).
 * BENCH_HTTP_CONNECTIONS (16), BENCH_HTTP_WARMUP (8 s per route endpoint and service, unmeasured),
 * BENCH_HTTP_SECONDS (3 per cell), BENCH_HTTP_ROUNDS (4).
 */
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { quantile, type BenchRow } from './bench-row';
import { ask } from './child-io';
import type { LoadFigures, LoadOrder } from './http-client';
import { cpuSeconds } from './cpu';
import { startService, withoutRules, type Service } from './http-service';
import { forkHeld, heldTempDir, stopHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
/** The query of the issue that found executable legs three times slower. */
export const HTTP_ROUTE = '/route?from=USDT&to=BTC&amountIn=25000&strategy=split_optimal&maxVenues=10';
const ENDPOINTS = [
  { name: 'GET /health', path: '/health', vary: false },
  { name: 'GET /route one query', path: HTTP_ROUTE, vary: false },
  { name: 'GET /route new amount each', path: HTTP_ROUTE, vary: true },
] as const;
type Endpoint = (typeof ENDPOINTS)[number]['name'];
/** One run of one endpoint on one service, with the service's CPU time per answer meanwhile. */
type Cell = LoadFigures & { readonly cpuUs: number };

/** A whole positive number from the environment. */
function setting(name: string, fallback: number): number {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a whole number above 0`);
  return v;
}

export async function benchHttp(baseline: string | null): Promise<BenchRow[]> {
  const connections = setting('BENCH_HTTP_CONNECTIONS', 16);
  const seconds = setting('BENCH_HTTP_SECONDS', 3);
  const rounds = setting('BENCH_HTTP_ROUNDS', 4);
  const warmup = setting('BENCH_HTTP_WARMUP', 8);
  const { dir, remove: removeDir } = heldTempDir('bench-http-');
  const services: Service[] = [];
  let client: ChildProcess | null = null;
  try {
    const ruled = withoutRules(join(ROOT, 'replay-data'), join(dir, 'no-rules'));
    if (ruled === 0) throw new Error('replay-data/ has no market with order rules: nothing to compare');
    const recordings = { rules: join(ROOT, 'replay-data'), 'no rules': join(dir, 'no-rules') };
    const builds = [{ prefix: '', root: ROOT }];
    if (baseline !== null) builds.push({ prefix: 'baseline, ', root: resolve(baseline) });
    for (const b of builds)
      for (const [name, path] of Object.entries(recordings)) {
        const label = `${b.prefix}${name}`;
        const s = await startService(label, b.root, path, join(dir, `data-${services.length}`));
        console.error(`http: ${label}: ${s.url} (pid ${s.pid}, ${b.root})`);
        services.push(s);
      }
    client = forkHeld('http load client', join(__dirname, 'http-client.js'), [], { stdio: 'inherit' });
    const run = async (s: Service, e: (typeof ENDPOINTS)[number], secs: number): Promise<Cell> => {
      const order: LoadOrder = { url: s.url, path: e.path, vary: e.vary, connections, seconds: secs };
      const cpu0 = cpuSeconds(s.pid);
      const f = await ask<LoadFigures>(client!, order);
      const cpuUs = ((cpuSeconds(s.pid) - cpu0) * 1e6) / f.ok;
      if (f.failed > 0 || f.ok === 0)
        throw new Error(`${s.label}, ${e.name}: ${f.failed} failed, ${f.ok} answered`);
      return { ...f, cpuUs };
    };
    // Warm-up (JIT, caches, first journal segments): not counted. A route request runs the solver,
    // whose optimised code takes several seconds of load to settle (the solve's own time fell from
    // 241 to 153 us over the first 9 s in one run, the rules walk having more code to optimise than
    // the plain walk), and a service answering for hours is past it: each route endpoint is warmed
    // for BENCH_HTTP_WARMUP seconds, so the cells compare services in their steady state.
    for (const s of services) for (const e of ENDPOINTS) await run(s, e, e.path === '/health' ? 1 : warmup);
    const cells = new Map<string, Cell[]>();
    for (let r = 0; r < rounds; r++) {
      console.error(`http: round ${r + 1} of ${rounds} (${connections} connections, ${seconds} s a cell)`);
      for (const e of ENDPOINTS)
        for (let k = 0; k < services.length; k++) {
          const s = services[(k + r) % services.length]!;
          const key = `${s.label}|${e.name}`;
          cells.set(key, [...(cells.get(key) ?? []), await run(s, e, seconds)]);
        }
    }
    return httpRows(services, cells, connections, baseline !== null);
  } finally {
    if (client !== null) await stopHeld(client);
    for (const s of services.reverse()) await s.stop();
    await removeDir();
  }
}

function httpRows(
  services: readonly Service[],
  cells: ReadonlyMap<string, Cell[]>,
  connections: number,
  withBaseline: boolean,
): BenchRow[] {
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string): void => {
    rows.push({ scenario: 'http', metric, value, unit });
  };
  const cell = (label: string, e: Endpoint): Cell[] => cells.get(`${label}|${e}`)!;
  const median = (xs: readonly number[]): number => quantile(xs, 0.5);
  /** Median over the rounds of a / b, cell by cell: req/s, and server CPU per request. */
  const ratios = (metric: string, a: Cell[], b: Cell[]): void => {
    row(metric, median(a.map((f, i) => f.rps / b[i]!.rps)), 'x req/s');
    row(`${metric}, server CPU`, median(a.map((f, i) => f.cpuUs / b[i]!.cpuUs)), 'x us/request');
  };
  for (const s of services)
    for (const e of ENDPOINTS) {
      const c = cell(s.label, e.name);
      row(`${s.label}: ${e.name} req/s (${connections} conns)`, median(c.map((f) => f.rps)), 'req/s');
      row(`${s.label}: ${e.name} p50`, median(c.map((f) => f.p50)), 'ms');
      row(`${s.label}: ${e.name} p99`, median(c.map((f) => f.p99)), 'ms');
      row(`${s.label}: ${e.name} server CPU`, median(c.map((f) => f.cpuUs)), 'us/request');
    }
  const routes = ENDPOINTS.slice(1);
  for (const s of services)
    for (const e of routes)
      row(
        `${s.label}: ${e.name} / GET /health`,
        median(cell(s.label, e.name).map((f, i) => f.rps / cell(s.label, 'GET /health')[i]!.rps)),
        'x req/s',
      );
  // GET /health, the same code on both, shows how far the machine's noise goes.
  for (const prefix of withBaseline ? ['', 'baseline, '] : [''])
    for (const e of ENDPOINTS)
      ratios(
        `${prefix}rules / no rules: ${e.name}`,
        cell(`${prefix}rules`, e.name),
        cell(`${prefix}no rules`, e.name),
      );
  if (withBaseline)
    for (const rec of ['rules', 'no rules'])
      for (const e of ENDPOINTS)
        ratios(`this / baseline, ${rec}: ${e.name}`, cell(rec, e.name), cell(`baseline, ${rec}`, e.name));
  return rows;
}
