/**
 * Stream flood (issue 22), for the `api` and `hostile` scenarios: the bench server (60 venues x
 * 1,000 levels) in a process of its own with BTC/USDT moving 20 times a second, so every stream of
 * the 50 distinct requests has a new state every tick; 1,000 and then 5,000 streams held by a
 * client process of their own. Per level: frames (and bytes) per second the clients receive, a
 * well-behaved client's GET /route latency (autocannon in its own process, 4 connections, 5 s) and
 * how long a new stream waits for its first frame, while the flood runs. `api` runs each level
 * with v1 clients (a /stream/route socket a stream) and then v2 clients (/stream, routestream.v2,
 * 10 subscriptions a socket) in the same run, and reports v2's envelope bytes per frame.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import WebSocket from 'ws';
import { SERVER_DEFAULTS } from '@app/config';
import { SOLVE_COST_FRAMES } from '../apps/api/src/stream/frame-budget';
import type { ClientFigures } from './api-client';
import { ask, clientProcess, lineFrom, nextMessage } from './child-io';
import { ROUTE } from './api-rest';
import type { BenchRow } from './bench-row';
import { floodQuery } from './stream-flood-queries';
import { forkHeld, spawnHeld } from './processes';

const DISTINCT = 50;
const MOVES_PER_SEC = 20;
const SECONDS = 5;
const NEW_STREAMS = 5;

export interface FloodOptions {
  readonly scenario: 'api' | 'hostile';
  readonly levels: readonly number[];
  /** Client addresses for `streams` streams (hostile: the default per-IP cap a address). */
  readonly addresses: (streams: number) => number;
  /** The stream protocols the flood clients speak, each level run once per protocol. */
  readonly protocols: readonly ('v1' | 'v2')[];
}

/** `api`: every stream from one address, the connection limits raised. */
export const API_FLOOD: FloodOptions = {
  scenario: 'api',
  levels: [1000, 5000],
  addresses: () => 1,
  protocols: ['v1', 'v2'],
};
/** `hostile`: the default limits; STREAM_MAX_PER_IP streams an address (5,000 streams from 500 addresses). */
export const HOSTILE_FLOOD: FloodOptions = {
  scenario: 'hostile',
  levels: [1000, 5000],
  addresses: (streams) => Math.ceil(streams / SERVER_DEFAULTS.streamMaxPerIp),
  protocols: ['v1'],
};

export async function benchStreamFlood(o: FloodOptions): Promise<BenchRow[]> {
  const server = forkHeld(
    'bench server',
    join(__dirname, 'hostile-server.js'),
    [o.scenario === 'api' ? 'raised' : 'default'],
    {
      execArgv: ['--max-semi-space-size=64'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const rows: BenchRow[] = [];
  try {
    const { url } = await nextMessage<{ url: string }>(server);
    const port = Number(new URL(url).port);
    await ask(server, { moves: MOVES_PER_SEC });
    for (const streams of o.levels)
      for (const protocol of o.protocols) {
        const addresses = o.addresses(streams);
        const f = await floodLevel(server, port, url, streams, addresses, protocol);
        const v = o.protocols.length > 1 ? `, ${protocol}` : '';
        const at = `${streams.toLocaleString('en-US')} streams (${DISTINCT} requests, ${addresses} address${addresses > 1 ? 'es' : ''}${v})`;
        const row = (metric: string, value: number, unit: string): void => {
          rows.push({ scenario: o.scenario, metric: `stream flood ${at}: ${metric}`, value, unit });
        };
        row('frames/s received', f.framesPerSec, 'frames/s');
        row('bytes/s received', f.bytesPerSec / 1e6, 'MB/s');
        row('server CPU while flooded', f.serverCores, 'cores');
        row('GET /route p99 (4 conns, client process)', f.rest.p99, 'ms');
        row('GET /route p50', f.rest.p50, 'ms');
        row('GET /route max', f.rest.max, 'ms');
        row('GET /route quotes/s', f.rest.rps, 'req/s');
        row(`new stream's first frame (worst of ${NEW_STREAMS})`, f.firstFrameMs, 'ms');
        row('streams open at the end (of those opened)', f.stillOpen, 'streams');
        if (protocol === 'v2')
          row('v2 envelope bytes per frame (around the result)', f.envelopeBytesPerFrame, 'bytes');
        else if (o.protocols.length > 1)
          row('frame bytes (the result alone)', f.bytesPerSec / f.framesPerSec, 'bytes');
      }
    await ask(server, { moves: 0 });
    return rows;
  } finally {
    const exited = new Promise((r) => server.once('exit', r));
    server.send('stop');
    await exited;
  }
}

/** How long the stream budget takes to repay the opening of `streams` streams (frame and solve each). */
export function openingDebtMs(streams: number): number {
  return ((streams * (SOLVE_COST_FRAMES + 1)) / SERVER_DEFAULTS.streamBudget.framesPerSec) * 1000;
}

interface LevelFigures {
  readonly framesPerSec: number;
  readonly bytesPerSec: number;
  readonly rest: ClientFigures;
  readonly firstFrameMs: number;
  readonly stillOpen: number;
  /** The server process's CPU over the measured window, in cores. */
  readonly serverCores: number;
  readonly envelopeBytesPerFrame: number;
}

async function floodLevel(
  server: ChildProcess,
  port: number,
  url: string,
  streams: number,
  addresses: number,
  protocol: 'v1' | 'v2',
): Promise<LevelFigures> {
  const clients = spawnHeld(
    'stream clients',
    process.execPath,
    [
      '--max-semi-space-size=64',
      join(__dirname, 'stream-flood-clients.js'),
      String(port),
      String(streams),
      String(addresses),
      String(DISTINCT),
      protocol,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  try {
    const opened = JSON.parse(await lineFrom(clients, (l) => l.includes('"open"'))) as {
      open: number;
      failed: number;
    };
    if (opened.failed > 0)
      throw new Error(`stream flood: ${opened.failed} of ${streams} streams failed to open`);
    // Every opening frame and its solve are charged to the stream budget even when it is spent (an
    // opening frame is never held back), so opening all streams leaves a debt the pump repays
    // before any later frame goes: seconds at 5,000 streams. v2 clients open theirs within a
    // second (10 subscribes a socket), v1 clients over several (a handshake each), so a fixed
    // settle measured v2 partly inside its debt (1,771 vs 4,762 frames/s in one run). Measure from
    // when the debt is repaid, for both.
    await new Promise((r) => setTimeout(r, 1000 + openingDebtMs(streams)));
    clients.stdin!.write('reset\n');
    const cpuFrom = await cpuMicros(server);
    const wallFrom = performance.now();
    const rest = clientProcess(url + ROUTE, SECONDS);
    const firsts: number[] = [];
    for (let i = 0; i < NEW_STREAMS; i++) {
      await new Promise((r) => setTimeout(r, (SECONDS * 1000) / (NEW_STREAMS + 1)));
      firsts.push(await firstFrameMs(port, floodQuery(i)));
    }
    const figures = await rest;
    const serverCores = ((await cpuMicros(server)) - cpuFrom) / 1000 / (performance.now() - wallFrom);
    const report = lineFrom(clients, (l) => l.includes('"frames"'));
    clients.stdin!.write('report\n');
    const r = JSON.parse(await report) as {
      frames: number;
      bytes: number;
      envelopeBytes: number;
      ms: number;
      closed: number;
    };
    if (figures.failed > 0) throw new Error(`stream flood: ${figures.failed} GET /route requests failed`);
    return {
      framesPerSec: (r.frames * 1000) / r.ms,
      bytesPerSec: (r.bytes * 1000) / r.ms,
      rest: figures,
      firstFrameMs: Math.max(...firsts),
      stillOpen: streams - r.closed,
      serverCores,
      envelopeBytesPerFrame: r.frames === 0 ? 0 : r.envelopeBytes / r.frames,
    };
  } finally {
    clients.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Open one more stream (from its own address) and time its first frame. */
function firstFrameMs(port: number, query: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${query}`, { localAddress: '127.0.2.250' });
    ws.once('message', () => {
      resolve(performance.now() - t0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

async function cpuMicros(server: ChildProcess): Promise<number> {
  return (await ask<{ cpuMicros: number }>(server, 'cpu')).cpuMicros;
}
