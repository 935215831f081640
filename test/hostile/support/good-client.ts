import { request } from 'node:http';
import WebSocket from 'ws';
import { assertDocumentedFrame } from '../../api/support/contract';
import { BYSTANDER } from './bystander';

/** One REST request of the well-behaved client: when it started, its status and how long it took. */
export interface Asked {
  readonly path: string;
  readonly startedAt: number;
  readonly status: number;
  readonly ms: number;
}

/** What the well-behaved client saw. */
export interface GoodFigures {
  readonly asked: readonly Asked[];
  /** From opening its stream to the first frame (null: none came). */
  readonly firstFrameMs: number | null;
  /** When (performance.now()) each of its stream frames arrived. */
  readonly frameTimes: readonly number[];
  /** Whether its stream was still open when it stopped. */
  readonly streamOpen: boolean;
}

export interface GoodClient {
  /** Stop asking, close the stream, and return what it saw. */
  stop(): Promise<GoodFigures>;
}

/** What it asks by default, in turn. */
export const GOOD_PATHS: readonly string[] = ['/health', '/route?from=USDT&to=BTC&amountIn=100.1&bridges='];
/** The client's own stream: every BTC/USDT move is a new state for it. */
export const GOOD_STREAM = 'from=USDT&to=BTC&amountIn=1&bridges=';

/**
 * A well-behaved client on its own address (BYSTANDER by default): REST requests (by default
 * /health and /route in turn), one at a time on a new connection each, `gapMs` apart, each timed from
 * connecting to the last byte of the answer; and its own stream, every frame checked against the
 * AsyncAPI document.
 */
export function startGoodClient(
  port: number,
  address = BYSTANDER,
  gapMs = 25,
  paths: readonly string[] = GOOD_PATHS,
): GoodClient {
  const asked: Asked[] = [];
  const frameTimes: number[] = [];
  let firstFrameMs: number | null = null;
  let stopped = false;
  const openedAt = performance.now();
  const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${GOOD_STREAM}`, { localAddress: address });
  ws.on('message', (d: Buffer) => {
    const at = performance.now();
    assertDocumentedFrame(JSON.parse(d.toString()));
    firstFrameMs ??= at - openedAt;
    frameTimes.push(at);
  });
  ws.on('error', () => undefined);
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const path = paths[i % paths.length]!;
      const startedAt = performance.now();
      const status = await ask(port, path, address);
      asked.push({ path, startedAt, status, ms: performance.now() - startedAt });
      await new Promise((r) => setTimeout(r, gapMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      const streamOpen = ws.readyState === WebSocket.OPEN;
      ws.terminate();
      return { asked, firstFrameMs, frameTimes, streamOpen };
    },
  };
}

/** Requests of `figures` started in [from, to) (performance.now() times). */
export function askedBetween(figures: GoodFigures, from: number, to = Infinity): Asked[] {
  return figures.asked.filter((a) => a.startedAt >= from && a.startedAt < to);
}

/** The q-quantile (0..1) of request durations, by nearest rank. */
export function quantileMs(asked: readonly Asked[], q: number): number {
  const sorted = asked.map((a) => a.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** The longest wait between two of its stream frames in [from, to), or from `from` to the first. */
export function longestFrameGap(figures: GoodFigures, from: number, to: number): number {
  let last = from;
  let gap = 0;
  for (const t of figures.frameTimes) {
    if (t < from) continue;
    if (t >= to) break;
    gap = Math.max(gap, t - last);
    last = t;
  }
  return Math.max(gap, to - last);
}

function ask(port: number, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, localAddress, agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/**
 * The bound a figure of the good client is held to: the issue's, unless the same figure of a
 * control client, asking an unattacked server over the same window (the machine's own noise:
 * other processes on a shared, busy 2-core box), is already more than a third of it; then three
 * times the control's. On a quiet machine this is the issue's bound exactly; on an overloaded one
 * (a run queue of 15-20 on two cores, where two equally idle servers' tail latencies differ by a
 * factor of two to four) the attack must still not make the client much worse than the machine.
 */
export function boundFor(issueBoundMs: number, controlMs: number): number {
  return Math.max(issueBoundMs, 3 * controlMs);
}

/** The longest request of `asked` (0 when none). */
export function worstMs(asked: readonly Asked[]): number {
  return asked.reduce((m, a) => Math.max(m, a.ms), 0);
}
