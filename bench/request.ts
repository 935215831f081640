/**
 * `npm run bench -- request` (issue 23): what reading and validating one route request costs.
 * 1. In process: each entry point's parser (GET query, POST body, stream URL, backtest schedule
 *    entry, stored journal request) on a well-formed request and on a malformed one: microseconds
 *    per call (median and p99 of 200 batches of 50 calls) and bytes allocated per call.
 * 2. Over HTTP (the `api` bench's server, 60 venues x 1,000 levels, in a process of its own:
 *    bench/api-server.ts): GET /route with the same query each time (the parse cache answers),
 *    with a new query each time (every one parsed and validated) and POST /route, from a client
 *    process of its own timing each answer (bench/request-client.ts, 4 connections, 5 s each), in
 *    three alternating rounds (the median round by p99); and the server's CPU time per request
 *    (from /proc, so other processes' load on the shared machine does not count; median round).
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  parseRouteBody,
  parseRouteQuery,
  parseScheduleEntry,
  routeRequest,
  validateStoredRequest,
} from '@app/request';
import { ROUTE } from './api-rest';
import { bytesPerCall, quantile, type BenchRow } from './bench-row';
import type { RequestFigures, RequestMode } from './request-client';
import { outputOf } from './child-io';
import { cpuSeconds } from './cpu';
import { spawnHeld } from './processes';

const QUERY = ROUTE.slice('/route?'.length);
/** Every parameter REST accepts, most in their text forms. */
const FULL_QUERY =
  'from=%20eth&to=usdt&amountIn=2.5&strategy=split_capped&maxVenues=2&bridges=USDC,btc&hopPenaltyBps=10' +
  '&exchanges=kraken,binance&certified=true&includeFees=false&includeQuotes=false' +
  '&balances=binance.ETH:3,USDT:100&balanceMode=require&minLegNotional=5&requireFullFill=true&asOf=1786300060000';
/** Five bad parameters: each is named in the one 400. */
const BAD_QUERY = 'from=%C3%9F&amountIn=-1&strategy=fastest&maxVenues=0.5&bridges=a,,b';
const BODY = { from: 'USDT', to: 'BTC', amountIn: 20000, strategy: 'split_optimal', bridges: [] };
const FULL_BODY = {
  from: 'eth',
  to: 'usdt',
  amountIn: '2.5',
  strategy: 'split_capped',
  maxVenues: 2,
  bridges: ['USDC', 'btc'],
  exchanges: 'kraken,binance',
  certified: true,
  balances: { 'binance.ETH': 3, USDT: '100' },
  requireFullFill: true,
};
const SCHEDULE_ENTRY = { from: 'ETH', to: 'USDT', sizes: [1, 5, 25], bridges: ['USDC'], maxVenues: 2 };
const STORED = {
  ...routeRequest({ requestId: 'r-1', from: 'ETH', to: 'USDT', amount: 2.5, strategy: 'split_capped' }),
  exchanges: ['binance', 'kraken'],
  balances: { default: { USDT: 100 }, perVenue: { binance: { ETH: 3 } } },
};

const CASES: readonly { readonly name: string; readonly ok: boolean; readonly run: () => unknown }[] = [
  { name: 'GET query, bench request', ok: true, run: () => parseRouteQuery(QUERY, 'rest') },
  { name: 'GET query, all 17 parameters', ok: true, run: () => parseRouteQuery(FULL_QUERY, 'rest') },
  { name: 'GET query, 5 bad parameters (400)', ok: false, run: () => parseRouteQuery(BAD_QUERY, 'rest') },
  { name: 'POST body, bench request', ok: true, run: () => parseRouteBody(BODY) },
  { name: 'POST body, 10 parameters', ok: true, run: () => parseRouteBody(FULL_BODY) },
  { name: 'stream URL', ok: true, run: () => parseRouteQuery(QUERY, 'stream') },
  { name: 'backtest schedule entry', ok: true, run: () => parseScheduleEntry(SCHEDULE_ENTRY) },
  { name: 'stored journal request', ok: true, run: () => validateStoredRequest(STORED) },
];

const BATCH = 50;

function perCallUs(run: () => unknown): { p50: number; p99: number } {
  for (let i = 0; i < 5000; i++) run();
  const batches: number[] = [];
  for (let b = 0; b < 200; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) run();
    batches.push(Number(process.hrtime.bigint() - t0) / 1e3 / BATCH);
  }
  return { p50: quantile(batches, 0.5), p99: quantile(batches, 0.99) };
}

export async function benchRequest(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string): void => {
    rows.push({ scenario: 'request', metric, value, unit });
  };
  for (const c of CASES) {
    const first = c.run() as { ok: boolean };
    if (first.ok !== c.ok) throw new Error(`request bench: ${c.name} gave ${JSON.stringify(first)}`);
    const t = perCallUs(c.run);
    row(`${c.name}: per call p50`, t.p50, 'us');
    row(`${c.name}: per call p99`, t.p99, 'us');
    row(`${c.name}: allocated`, bytesPerCall(c.run), 'bytes');
  }
  const server = spawnHeld(
    'bench server',
    process.execPath,
    ['--max-semi-space-size=64', join(__dirname, 'api-server.js')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const [line] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
    const { url } = JSON.parse(line) as { url: string };
    const rounds = new Map<RequestMode, RequestFigures[]>();
    const cpu = new Map<RequestMode, number[]>();
    for (let round = 0; round < 3; round++)
      for (const mode of ['repeat', 'vary', 'post'] as const) {
        const cpu0 = cpuSeconds(server.pid!);
        const f = await clientProcess(url, mode);
        if (f.failed > 0) throw new Error(`request bench: ${f.failed} failed ${mode} requests`);
        rounds.set(mode, [...(rounds.get(mode) ?? []), f]);
        cpu.set(mode, [...(cpu.get(mode) ?? []), ((cpuSeconds(server.pid!) - cpu0) * 1e6) / f.sent]);
      }
    const label: Record<RequestMode, string> = {
      repeat: 'GET /route, same query (parse cache)',
      vary: 'GET /route, new query each time',
      post: 'POST /route',
    };
    for (const [mode, figures] of rounds) {
      const f = [...figures].sort((a, b) => a.p99 - b.p99)[1]!;
      row(`${label[mode]}: p50`, f.p50, 'ms');
      row(`${label[mode]}: p99`, f.p99, 'ms');
      row(`${label[mode]}: throughput`, f.rps, 'req/s');
      row(`${label[mode]}: server CPU per request`, quantile(cpu.get(mode)!, 0.5), 'us');
    }
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  return rows;
}

async function clientProcess(url: string, mode: RequestMode): Promise<RequestFigures> {
  const stdout = await outputOf('load client', process.execPath, [
    join(__dirname, 'request-client.js'),
    url,
    mode,
    '4',
    '5',
  ]);
  return JSON.parse(stdout) as RequestFigures;
}
