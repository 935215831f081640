import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';
import { askedBetween, boundFor, GOOD_STREAM, quantileMs, startGoodClient } from './support/good-client';
import { moveBooks } from './support/moves';
import { spawnServer, type SpawnedServer } from './support/server';

// Issue 22: streams starved everyone. At about 5,400 streams the server was CPU-bound sending
// 29,000 journalled frames a second; a well-behaved client's /route p99 was 634 ms and handshakes
// waited seconds. Now every frame after the opening one goes through a global budget (frames and
// bytes a second), served round-robin by address; over it frames are dropped (the newest state
// still lands), and the budget's work gives the event loop back every few milliseconds.
// Compressed: a budget of 1,000 frames a second against 500 streams (50 addresses x 10, 50
// distinct requests) whose books move every 50 ms, a demand of 5,000 frames a second.
const FRAMES_PER_SEC = 1000;
const ADDRESSES = 50;
const PER_ADDRESS = 10;
const DISTINCT = 50;
const ROUTE = '/route?from=USDT&to=BTC&amountIn=100.1&bridges=';
const query = (i: number): string => `from=USDT&to=BTC&amountIn=${1 + (i % DISTINCT)}&bridges=`;

let s: SpawnedServer;
/** An unattacked server of its own: its client measures the machine's noise over the same window. */
let control: SpawnedServer;
beforeAll(async () => {
  [s, control] = await Promise.all([
    spawnServer({ STREAM_FRAMES_PER_SEC: String(FRAMES_PER_SEC) }),
    spawnServer(),
  ]);
});
afterAll(() => Promise.all([s.stop(), control.stop()]));

interface Flooder {
  readonly ws: WebSocket;
  readonly address: string;
  frames: number;
  last: Buffer | null;
}

/** Open one stream and resolve once its opening frame arrived, with the time it took. */
function open(port: number, q: string, address: string): Promise<{ flooder: Flooder; firstMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stream/route?${q}`, {
      localAddress: address,
      skipUTF8Validation: true,
    });
    const flooder: Flooder = { ws, address, frames: 0, last: null };
    ws.on('message', (d: Buffer) => {
      if (flooder.frames++ === 0) resolve({ flooder, firstMs: performance.now() - t0 });
      flooder.last = d;
    });
    ws.on('error', reject);
  });
}

describe('stream flood (issue 22)', () => {
  it(`${ADDRESSES * PER_ADDRESS} streams over ${ADDRESSES} addresses: frames held to the budget, fairly; the newest state lands; a good client's /route p99 <50 ms and a new stream's first frame <1 s`, async () => {
    const flooders: Flooder[] = [];
    for (let a = 0; a < ADDRESSES; a++) {
      const opened = await Promise.all(
        Array.from({ length: PER_ADDRESS }, (_, i) =>
          open(s.port, query(a * PER_ADDRESS + i), `127.0.6.${1 + a}`),
        ),
      );
      flooders.push(...opened.map((o) => o.flooder));
    }
    const moves = moveBooks(s, 50);
    const good = startGoodClient(s.port, undefined, 10, [ROUTE]);
    const controlClient = startGoodClient(control.port, '127.0.0.3', 10, [ROUTE]);
    await new Promise((r) => setTimeout(r, 1000));
    const from = performance.now();
    const before = flooders.reduce((n, f) => n + f.frames, 0);
    // New streams while the flood runs, each from an address of its own.
    const firsts: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const { flooder, firstMs } = await open(s.port, GOOD_STREAM, `127.0.7.${1 + i}`);
      firsts.push(firstMs);
      flooder.ws.terminate();
    }
    await new Promise((r) => setTimeout(r, 500));
    const seconds = (performance.now() - from) / 1000;
    const received = flooders.reduce((n, f) => n + f.frames, 0) - before;
    const seen = await good.stop();
    const noise = await controlClient.stop();
    const finalAsk = await moves.stop();

    const goodFrames = seen.frameTimes.filter((t) => t >= from).length / seconds;
    const perStream = received / seconds / flooders.length;
    const asked = askedBetween(seen, from);
    const p99 = quantileMs(asked, 0.99);
    const controlP99 = quantileMs(askedBetween(noise, from), 0.99);
    console.log(
      `stream flood: ${(received / seconds).toFixed(0)} frames/s to the flood (budget ${FRAMES_PER_SEC}); ${perStream.toFixed(2)} a flood stream, ${goodFrames.toFixed(2)} the good client's; /route p99 ${p99.toFixed(0)} ms (control ${controlP99.toFixed(0)} ms, ${asked.length} requests); first frames ${firsts.map((f) => f.toFixed(0)).join(', ')} ms`,
    );
    // The budget holds (opening frames and a burst of a tenth of a second aside).
    expect(received / seconds).toBeLessThan(FRAMES_PER_SEC * 1.15);
    // And it is spent: solves take their share (5 frames each), a loaded machine takes some more.
    expect(received / seconds).toBeGreaterThan(FRAMES_PER_SEC * 0.2);
    // Fair by address: the good client's one stream gets at least what a flood stream gets.
    expect(goodFrames).toBeGreaterThanOrEqual(perStream * 0.8);
    expect(asked.every((a) => a.status === 200)).toBe(true);
    expect(p99).toBeLessThan(boundFor(50, controlP99));
    for (const ms of firsts) expect(ms).toBeLessThan(1000);

    // The books stopped moving: every stream ends on the newest state (frames in between dropped).
    const lastPrices = (): number[] =>
      flooders.map((f) => {
        const r = JSON.parse(f.last!.toString()) as { hops: { legs: { averagePrice: number }[] }[] };
        return r.hops[0]!.legs[0]!.averagePrice;
      });
    await waitFor(
      'every stream to land on the newest state',
      () => lastPrices().every((p) => Math.abs(p - finalAsk) < 1e-9),
      15_000,
    );
    for (const f of flooders) f.ws.terminate();
  }, 120_000);
});
