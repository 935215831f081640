import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { MAX_BUFFERED_BYTES } from '../../apps/api/src/stream/subscriber';
import { openStream, sleep } from './support/http';
import { book, market, venue } from '../support/records';
import { startTestServer, type TestServer } from './support/server';

// Backpressure and heartbeats (spec 6.4, 6.6; clarifications 11).
const VENUES = 3000;
const id = (i: number) => `v${String(i).padStart(4, '0')}`;

/** 3,000 venues on BTC/USDT, so a frame with includeQuotes is about 0.6 MB. */
function wideWorld(): EventRecord[] {
  const out: EventRecord[] = [];
  for (let i = 0; i < VENUES; i++)
    out.push(
      venue(id(i)),
      market(id(i), 'BTC/USDT', 0.001),
      book(id(i), 'BTC/USDT', [[99, 1]], [[100 + i * 0.001, 1]]),
    );
  return out;
}

let s: TestServer;
let beat: TestServer;
// Long enough that a healthy client on a busy 2-core machine always answers in time.
const HEARTBEAT_MS = 250;
beforeAll(async () => {
  [s, beat] = await Promise.all([
    startTestServer({}, wideWorld()),
    startTestServer({ heartbeatMs: HEARTBEAT_MS }),
  ]);
});
afterAll(() => Promise.all([s.close(), beat.close()]));

describe('slow reader', () => {
  it('frames are dropped, not queued: server-side buffer stays bounded, and the newest state lands once it drains', async () => {
    const st = openStream(s.wsUrl, 'from=USDT&to=BTC&amountIn=100.1&bridges=&includeQuotes=true');
    const first = await st.next(5000);
    const frameBytes = JSON.stringify(first).length;
    expect(frameBytes).toBeGreaterThan(400_000);
    // Stop reading: the kernel buffers fill, then ws.bufferedAmount grows on the server.
    (st.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    let maxBuffered = 0;
    let ask = 90;
    for (let k = 0; k < 40; k++) {
      ask = 90 - k * 0.5;
      await s.write([book(id(0), 'BTC/USDT', [[ask - 1, 1]], [[ask, 10]], 2 + k)]);
      await sleep(50);
      maxBuffered = Math.max(maxBuffered, s.server.streamStats().maxBufferedBytes);
    }
    const stats = s.server.streamStats();
    // ~20 ticks of 0.6 MB would be ~12 MB queued; the bound keeps it to one frame over the limit.
    expect(maxBuffered).toBeGreaterThan(0);
    expect(maxBuffered).toBeLessThanOrEqual(MAX_BUFFERED_BYTES + frameBytes * 1.1);
    expect(stats.framesDropped).toBeGreaterThan(0);
    (st.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const deadline = performance.now() + 5000;
    const want = 100.1 / (ask * 1.001);
    while (performance.now() < deadline && Math.abs((st.frames.at(-1)?.amountOut ?? 0) - want) > 1e-9)
      await sleep(50);
    expect(st.frames.at(-1).amountOut).toBeCloseTo(want, 9);
    expect(st.frames.length).toBeLessThan(40);
    st.ws.close();
    await st.closed;
  });
});

describe(`heartbeat (HEARTBEAT_MS=${HEARTBEAT_MS})`, () => {
  it('a client that stops answering pings is terminated after two missed heartbeats and its slot freed', async () => {
    const silent = openStream(beat.wsUrl, 'from=USDT&to=BTC&amountIn=1&bridges=', { autoPong: false });
    const healthy = openStream(beat.wsUrl, 'from=USDT&to=BTC&amountIn=1&bridges=');
    await Promise.all([silent.next(5000), healthy.next(5000)]);
    const openedAt = performance.now();
    const closed = await silent.closed;
    const after = performance.now() - openedAt;
    // Abrupt termination, no close frame: 1006 on the client.
    expect(closed.code).toBe(1006);
    // Not before the second missed ping; well before it would be "never" (timers slip under load).
    expect(after).toBeGreaterThanOrEqual(1.5 * HEARTBEAT_MS);
    expect(after).toBeLessThan(12 * HEARTBEAT_MS);
    await sleep(3 * HEARTBEAT_MS);
    expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
    expect(beat.server.streamStats().subscribers).toBe(1);
    healthy.ws.close();
    await healthy.closed;
  });
});
