import { BASE_CONFIG } from '../../api/support/server';
import type { ServerConfig } from '@app/config';
import type { EventRecord } from '@app/events';
import { logSink } from '@app/event-log';
import WebSocket from 'ws';
import { startApiServer, type ApiServer } from '../../../apps/api/src/bootstrap';
import { Clock } from '../../../apps/api/src/clock';
import { waitCaughtUp, type ApiHost } from '../../../apps/api/src/compose';
import { generateMarket } from '@app/synth';

export const START = 1_786_300_000_000;

/** The service clock the scenario moves by hand. */
export class StepClock extends Clock {
  constructor(public at: number) {
    super();
  }
  now(): number {
    return this.at;
  }
}

/** One served result: the exact text the client received and how it was served. */
export interface Served {
  readonly body: string;
  readonly via: 'get' | 'post' | 'stream';
  readonly status: number | null;
  readonly asOf: number | null;
}

/** The API's test configuration (test/api/support/server.ts), listening on IPv4 loopback. */
export const SCENARIO_CONFIG: ServerConfig = { ...BASE_CONFIG, host: '127.0.0.1' };

/**
 * A 60-venue recording (seeded). SOL and XRP have no market of their own, so SOL -> XRP is
 * reachable only over a bridge (by amountOut it is 501), and every outcome the API serves appears.
 */
export function scenarioRecords(durationMs = 48_000): EventRecord[] {
  return [
    ...generateMarket({
      seed: 11,
      startAt: START,
      durationMs,
      snapshotEveryMs: 8_000,
      gapsPerMinute: 12,
      reconnectsPerMinute: 4,
    }),
  ];
}

/** GET queries covering every strategy, bridges, exact-out, a venue filter, certified, 404 and 501. */
function getQueries(stage: number): string[] {
  const out: string[] = [];
  for (const strategy of ['best_single', 'split_optimal', 'split_capped']) {
    out.push(
      `from=BTC&to=USDT&amountIn=${3 + stage}&strategy=${strategy}&bridges=USDC&hopPenaltyBps=2`,
      `from=USDT&to=ETH&amountIn=${200_000 + stage * 1000}&strategy=${strategy}&bridges=BTC,USDC`,
      `from=ETH&to=BTC&amountIn=40&strategy=${strategy}&exchanges=sim01,sim05,sim30,sim44`,
      `from=USDC&to=BTC&amountOut=1.5&strategy=${strategy}&bridges=`,
      `from=BTC&to=USDT&amountIn=0.5&strategy=${strategy}&maxVenues=2&includeQuotes=false&certified=true`,
      `from=ETH&to=USDC&amountIn=25&strategy=${strategy}&minLegNotional=5000&requireFullFill=true`,
    );
  }
  out.push(
    'from=FOO&to=USDT&amountIn=1',
    'from=SOL&to=XRP&amountOut=500',
    'from=SOL&to=XRP&amountIn=10',
    'from=BTC&to=USDT&amountIn=1&exchanges=nowhere',
  );
  return out;
}

/** POST bodies: balances in every form the API takes, both balance modes. */
function postBodies(stage: number): Record<string, unknown>[] {
  return [
    {
      from: 'BTC',
      to: 'USDT',
      amountIn: 3,
      strategy: 'split_optimal',
      balances: { BTC: 0.4, 'sim01.BTC': 2 },
    },
    { from: 'USDT', to: 'BTC', amountIn: 150_000 + stage, strategy: 'split_capped', balances: 'USDT:20000' },
    {
      from: 'USDT',
      to: 'BTC',
      amountIn: 50_000,
      strategy: 'best_single',
      balances: ['sim02.USDT:60000', 'sim03.USDT:1'],
      balanceMode: 'require',
    },
    { from: 'ETH', to: 'USDT', amountOut: 30_000, strategy: 'split_optimal', balances: {} },
  ];
}

export interface ScenarioResult {
  readonly served: Map<string, Served>;
  readonly server: ApiServer;
}

/**
 * Start the API on `host` and serve quotes while the recording is written to its log in stages:
 * REST (GET and POST), asOf quotes at instants between records, quotes 12 s after the last record
 * (every book stale), and stream frames on three sockets (two share one request).
 */
export async function serveScenario(
  host: ApiHost,
  records: readonly EventRecord[],
  stages: number,
  /** Where asOf instants fall in each stage, as fractions of the time recorded so far. */
  asOfAt: readonly number[] = [0.13, 0.5, 0.87],
): Promise<ScenarioResult> {
  const sink = logSink(host.log);
  const clock = new StepClock(START);
  // The first records (markets, venues, first snapshots) are in the log before the server starts.
  const opening = Math.floor(records.length / (stages * 2));
  await sink.write(records.slice(0, opening));
  await waitCaughtUp(host);
  clock.at = records[opening - 1]!.receivedAt;
  const server = await startApiServer({
    config: SCENARIO_CONFIG,
    feed: host.feed,
    log: host.log,
    clock,
    logger: false,
    // The requestId index, kept as `npm start` keeps it (undefined for a host opened by hand).
    journalIndexDir: host.journalIndexDir,
  });
  host.server = server;
  const served = new Map<string, Served>();
  const sockets = [
    'from=BTC&to=USDT&amountIn=3&strategy=split_optimal&bridges=USDC',
    'from=BTC&to=USDT&amountIn=3&strategy=split_optimal&bridges=USDC',
    'from=USDT&to=ETH&amountIn=100000&strategy=best_single',
  ].map((q) => listen(`${server.url.replace('http', 'ws')}/stream/route?${q}`, served));
  await Promise.all(sockets.map((s) => s.opened));

  let done = opening;
  for (let stage = 0; stage < stages; stage++) {
    const cut = Math.floor((records.length * (stage + 1)) / stages);
    // Written in four slices a little over the push floor apart, so the stream sends frames.
    for (let slice = 1; slice <= 4; slice++) {
      const to = done + Math.floor(((cut - done) * slice) / 4);
      const from = done + Math.floor(((cut - done) * (slice - 1)) / 4);
      clock.at = records[to - 1]!.receivedAt;
      await sink.write(records.slice(from, to));
      await waitCaughtUp(host);
      await sleep(110);
    }
    done = cut;
    const last = records[cut - 1]!.receivedAt;
    // Stage 2 is quoted 12 s after its last record: every book is stale by then.
    clock.at = last + (stage === 2 ? 12_000 : 137);
    await serveRest(server.url, stage, served);
    // asOf at instants strictly between records of the part written so far.
    for (const f of asOfAt) {
      const asOf = START + Math.floor((last - START) * f);
      const q = `asOf=${asOf}`;
      await get(
        server.url,
        `/route?from=BTC&to=USDT&amountIn=3&strategy=split_optimal&bridges=USDC&${q}`,
        served,
        asOf,
      );
      await get(
        server.url,
        `/route?from=USDT&to=ETH&amountIn=90000&strategy=split_capped&${q}`,
        served,
        asOf,
      );
      const body = { from: 'USDC', to: 'BTC', amountOut: 2, bridges: [], asOf, balances: { USDC: 1e9 } };
      await post(server.url, body, served, asOf);
    }
  }
  await sleep(250);
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
  return { served, server };
}

async function serveRest(url: string, stage: number, served: Map<string, Served>): Promise<void> {
  await Promise.all(getQueries(stage).map((q) => get(url, `/route?${q}`, served, null)));
  await Promise.all(postBodies(stage).map((b) => post(url, b, served, null)));
}

async function get(
  url: string,
  path: string,
  served: Map<string, Served>,
  asOf: number | null,
): Promise<void> {
  const res = await fetch(url + path);
  await keep(res, 'get', served, asOf, path);
}

async function post(
  url: string,
  body: Record<string, unknown>,
  served: Map<string, Served>,
  asOf: number | null,
): Promise<void> {
  const res = await fetch(`${url}/route`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await keep(res, 'post', served, asOf, JSON.stringify(body));
}

async function keep(
  res: Response,
  via: 'get' | 'post',
  served: Map<string, Served>,
  asOf: number | null,
  what: string,
): Promise<void> {
  const body = await res.text();
  if (![200, 404, 501].includes(res.status)) throw new Error(`${what}: ${res.status} ${body}`);
  const requestId = res.headers.get('x-request-id')!;
  served.set(requestId, { body, via, status: res.status, asOf });
}

interface Listener {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;
}

function listen(url: string, served: Map<string, Served>): Listener {
  const ws = new WebSocket(url);
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve());
    ws.once('error', reject);
  });
  ws.on('message', (data: WebSocket.RawData) => {
    const body = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString('utf8');
    const { requestId } = JSON.parse(body) as { requestId: string };
    served.set(requestId, { body, via: 'stream', status: null, asOf: null });
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  return { ws, opened, closed };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
