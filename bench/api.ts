/**
 * API benchmark: the real server (Fastify + ws) over the embedded log with 60 venues x 6 markets
 * x 1,000 levels per side. GET /route split_optimal single-hop under autocannon, then 1,000 stream
 * subscribers over 50 distinct requests while dependent books move 20 times a second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { HTTP_LIMIT_DEFAULTS, SERVER_DEFAULTS, type HttpLimits } from '@app/config';
import type { EventRecord } from '@app/events';
import { logSink, type EventLog } from '@app/event-log';
import { startApiServer } from '../apps/api/src/bootstrap';
import { WallClock } from '../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp } from '../apps/api/src/compose';
import { benchRest } from './api-rest';
import { quantile, type BenchRow } from './bench-row';
import { moveBooks } from './book-moves';
import { benchSnapshots } from './market-gen';
import { floodQuery } from './stream-flood-queries';

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const SUBSCRIBERS = 1000;
const DISTINCT = 50;
const MOVES_PER_SEC = 20;
const MOVE_SECONDS = 5;

/** The bench's server: embedded log in a temp dir, 60 venues x 1,000 levels, rate limit raised. */
export interface BenchServer {
  readonly url: string;
  readonly snapshots: EventRecord[];
  /** The server's log (the books and the journal). */
  readonly log: EventLog;
  write(records: EventRecord[]): Promise<void>;
  solves(): number;
  close(): Promise<void>;
}

/** The API bench's own limits: 1,000 stream subscribers share one client address. */
export const API_BENCH_LIMITS: HttpLimits = {
  ...HTTP_LIMIT_DEFAULTS,
  connectionsPerIp: 1e6,
  connectionsMax: 1e6,
};

export async function startBenchServer(port = 0, http: HttpLimits = API_BENCH_LIMITS): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const host = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
  const sink = logSink(host.log);
  const snapshots = benchSnapshots(60, 1000, Date.now());
  await sink.write(snapshots);
  await waitCaughtUp(host);
  const server = await startApiServer({
    // Books are not refreshed during the REST run, so the freshness cutoff is widened for the bench.
    config: {
      ...SERVER_DEFAULTS,
      port,
      rateLimitRps: 1e9,
      streamMaxPerIp: 1e6,
      routing: { ...SERVER_DEFAULTS.routing, staleBookMs: 3_600_000 },
      http,
    },
    feed: host.feed,
    log: host.log,
    clock: new WallClock(),
    logger: false,
  });
  host.server = server;
  return {
    url: server.url,
    snapshots,
    log: host.log,
    write: (records) => sink.write(records),
    solves: () => server.streamStats().solves,
    close: async () => {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function benchApi(): Promise<BenchRow[]> {
  const server = await startBenchServer();
  try {
    const rows = await benchRest(server.url);
    rows.push(
      ...(await benchStream(
        server.url.replace('http', 'ws'),
        server.snapshots,
        (records) => server.write(records),
        () => server.solves(),
      )),
    );
    return rows;
  } finally {
    await server.close();
  }
}

async function benchStream(
  wsUrl: string,
  snapshots: EventRecord[],
  write: (r: EventRecord[]) => Promise<void>,
  solves: () => number,
): Promise<BenchRow[]> {
  const queries = Array.from({ length: DISTINCT }, (_, i) => floodQuery(i));
  const worker = new Worker(join(__dirname, 'api-stream-clients.js'), {
    workerData: { wsUrl, queries, perQuery: SUBSCRIBERS / DISTINCT },
  });
  const opened = await new Promise<unknown>((resolve) => worker.once('message', resolve));
  if (opened !== 'open') throw new Error(`stream clients: ${String(opened)}`);

  await new Promise((r) => setTimeout(r, 300));
  const solvesBefore = solves();
  const startedAt = performance.now();
  const mover = moveBooks(snapshots, write, MOVES_PER_SEC, MOVE_SECONDS);
  await mover.done;
  const moves = mover.times;
  await new Promise((r) => setTimeout(r, 300));
  const elapsedMs = performance.now() - startedAt;
  const solved = solves() - solvesBefore;
  worker.postMessage('report');
  const frames = await new Promise<[number, number][][]>((resolve) => worker.once('message', resolve));
  await worker.terminate();

  const latencies: number[] = [];
  for (const log of frames) {
    for (const m of moves) {
      const f = log.find(([, calculatedAt]) => calculatedAt >= m);
      if (f !== undefined) latencies.push(f[0] - m);
    }
  }
  const ticks = elapsedMs / 100;
  return [
    {
      scenario: 'api',
      metric: 'stream push latency after a move p99',
      value: quantile(latencies, 0.99),
      unit: 'ms',
    },
    {
      scenario: 'api',
      metric: 'stream push latency after a move p50',
      value: quantile(latencies, 0.5),
      unit: 'ms',
    },
    {
      scenario: 'api',
      metric: 'stream solves per 100 ms tick',
      value: solved / ticks,
      unit: `solves (${SUBSCRIBERS} subs, ${DISTINCT} distinct)`,
    },
    {
      scenario: 'api',
      metric: 'stream frames delivered',
      value: frames.reduce((n, l) => n + l.length, 0),
      unit: 'frames',
    },
  ];
}
