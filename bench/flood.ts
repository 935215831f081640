/**
 * `npm run bench -- flood [--baseline=<dir>]`: one venue flooding one book, and what a user of
 * the same `npm start` sees. The built `route-service start` (this checkout, and the one named by
 * --baseline, alternately) ingests a local bitfinex-protocol venue (@app/synth startFloodVenue:
 * checksum frames on, as ccxt asks for them) whose BTC/USD book changes 5,000 times a second for
 * 20 s, written every millisecond ("paced") or in one burst a second ("bursts"); a client in this
 * process asks GET /route (USD to BTC, through the flooded book) one request at a time, 10 ms
 * apart, for 5 s before the flood (the control) and through it. Reported: /route p50/p99/max in
 * both windows, the process's CPU in the flood and its RSS after, the flooded book's records
 * published (its sequence) against the changes sent, and whether the served book equals the
 * venue's afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFloodVenue, type FloodMarket, type FloodVenue } from '@app/synth';
import { quantile, type BenchRow } from './bench-row';
import { get, listening, venuesConfig } from './flood-client';
import { spawnHeld } from './processes';

const ROOT = resolve(__dirname, '..', '..');
const RATE = 5_000;
const FLOOD_MS = 20_000;
const CONTROL_MS = 5_000;
const ROUTE = '/route?from=USD&to=BTC&amountIn=1000';
const BOOK = '/orderbook/bitfinex/BTC%2FUSD';
const MARKETS: readonly FloodMarket[] = [
  { id: 'tBTCUSD', base: 'BTC', quote: 'USD', mid: 65_000 },
  { id: 'tETHUSD', base: 'ETH', quote: 'USD', mid: 3_000 },
  { id: 'tETHBTC', base: 'ETH', quote: 'BTC', mid: 0.046 },
];
const PACINGS: readonly [string, number][] = [
  ['paced', 1],
  ['bursts', 1_000],
];

export async function benchFlood(baseline: string | null): Promise<BenchRow[]> {
  const roots: [string, string][] = [['this', ROOT]];
  if (baseline !== null) roots.unshift(['baseline', resolve(baseline)]);
  const rows: BenchRow[] = [];
  for (const [pacing, everyMs] of PACINGS)
    for (const [name, root] of roots) rows.push(...(await floodOnce(`${pacing}, ${name}`, root, everyMs)));
  return rows;
}

async function floodOnce(name: string, root: string, everyMs: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-flood-'));
  const venue = await startFloodVenue(MARKETS);
  let server: ChildProcess | null = null;
  try {
    const config = join(dir, 'venues.json');
    writeFileSync(config, JSON.stringify(venuesConfig(venue.ws, MARKETS)));
    // As `npm start` runs it (package.json: the same node flag).
    const args = ['--max-semi-space-size=64', join(root, 'bin/route-service.mjs'), 'start', '--port', '0'];
    server = spawnHeld(`flood service (${name})`, process.execPath, args, {
      cwd: root,
      env: { ...process.env, DATA_DIR: join(dir, 'data'), VENUES_CONFIG: config, RATE_LIMIT_RPS: '1000000' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const url = await listening(server);
    const upBy = Date.now() + 60_000;
    while ((await get(url, ROUTE)).status !== 200) {
      if (Date.now() > upBy) throw new Error(`flood bench (${name}): no route after 60 s`);
      await pause(200);
    }
    venue.prepare('tBTCUSD', (RATE * (FLOOD_MS + CONTROL_MS)) / 1000 + 1_000);
    const control = await askFor(url, CONTROL_MS);
    const seq0 = sequenceOf(await get(url, BOOK));
    const flooded = venue.flood('tBTCUSD', RATE, FLOOD_MS, everyMs);
    const cpu0 = cpuSeconds(server.pid!);
    const during = await askFor(url, FLOOD_MS);
    const cpu = (cpuSeconds(server.pid!) - cpu0) / (FLOOD_MS / 1000);
    const changes = await flooded;
    const rssMiB =
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024;
    const exact = await servedEqualsVenue(url, venue);
    const seq1 = sequenceOf(await get(url, BOOK));
    const row = (metric: string, value: number, unit: string): BenchRow => ({
      scenario: 'flood',
      metric: `${metric} (${name})`,
      value,
      unit,
    });
    const failed = [...control, ...during].filter((a) => a.status !== 200).length;
    return [
      row('GET /route p50, no flood', quantile(ms(control), 0.5), 'ms'),
      row('GET /route p99, no flood', quantile(ms(control), 0.99), 'ms'),
      row(`GET /route p50, ${RATE}/s flood`, quantile(ms(during), 0.5), 'ms'),
      row(`GET /route p99, ${RATE}/s flood`, quantile(ms(during), 0.99), 'ms'),
      row(`GET /route max, ${RATE}/s flood`, Math.max(...ms(during)), 'ms'),
      row('GET /route answers in the flood', during.length, 'requests'),
      row('GET /route not 200', failed, 'requests'),
      row('CPU of route-service start in the flood', cpu, 'cores'),
      row('RSS of route-service start after the flood', rssMiB, 'MiB'),
      row('flooded book: changes sent', changes, 'changes'),
      row('flooded book: records published (flood and catch-up)', seq1 - seq0, 'records'),
      row('served book equals the venue book after', exact ? 1 : 0, 'bool'),
    ];
  } finally {
    await venue.close();
    if (server !== null && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Asked {
  readonly status: number;
  readonly ms: number;
}

/** GET /route one request at a time, 10 ms apart, for `windowMs`. */
async function askFor(url: string, windowMs: number): Promise<Asked[]> {
  const out: Asked[] = [];
  const end = performance.now() + windowMs;
  while (performance.now() < end) {
    const t0 = performance.now();
    const { status } = await get(url, ROUTE);
    out.push({ status, ms: performance.now() - t0 });
    await pause(10);
  }
  return out;
}

const ms = (asked: readonly Asked[]): number[] => asked.map((a) => a.ms);

type Served = { bids?: { price: number; amount: number }[]; asks?: { price: number; amount: number }[] };

/** The served BTC/USD book equals the venue's at some instant within 10 s (the trickle goes on). */
async function servedEqualsVenue(url: string, venue: FloodVenue): Promise<boolean> {
  for (const until = Date.now() + 10_000; Date.now() < until; await pause(100)) {
    const want = venue.books().tBTCUSD!;
    const got = JSON.parse((await get(url, BOOK)).body) as Served;
    const same = (side: Served['bids'], levels: [number, number, number][]): boolean =>
      side !== undefined &&
      side.length === levels.length &&
      side.every((l, i) => l.price === levels[i]![0] && l.amount === Math.abs(levels[i]![2]));
    if (same(got.bids, want.bids) && same(got.asks, want.asks)) return true;
  }
  return false;
}

/** User plus system CPU of process `pid` so far, in seconds (/proc/<pid>/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function sequenceOf(r: { status: number; body: string }): number {
  if (r.status !== 200) throw new Error(`GET ${BOOK}: ${r.status} ${r.body.slice(0, 200)}`);
  return (JSON.parse(r.body) as { sequence: number }).sequence;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
