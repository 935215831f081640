import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedBetween, boundFor, longestFrameGap, startGoodClient, worstMs } from './support/good-client';
import { moveBooks } from './support/moves';
import { spawnServer, type SpawnedServer } from './support/server';
import { encodeFrame, openRawStream, type RawStream } from './support/ws-raw';

// Issue 22: stream sockets that ping without ever reading. Every pong the server owed used to be
// queued in memory (RSS 146 MB -> 1.4 GB in 30 s), and unsolicited pongs counted as heartbeat
// answers, so the heartbeat never closed them. Now a client is owed at most one pong, only a pong
// echoing the server's own ping counts, and a socket that missed two heartbeats is reset.
const HEARTBEAT_MS = 1000;
const FLOODERS = 10;
/** 125-byte masked pings, 40 of them every 10 ms per socket (about 0.5 MB/s of pongs each). */
const PING = encodeFrame({ fin: true, rsv: 0, opcode: 9, masked: true, payload: Buffer.alloc(125, 7) });
const BURST = Buffer.concat(Array<Buffer>(40).fill(PING));
const UNSOLICITED_PONG = encodeFrame({
  fin: true,
  rsv: 0,
  opcode: 10,
  masked: true,
  payload: Buffer.alloc(8),
});
const QUERY = 'from=USDT&to=BTC&amountIn=1&bridges=';

let s: SpawnedServer;
/** An unattacked server of its own: its client measures the machine's noise over the same window. */
let control: SpawnedServer;
beforeAll(async () => {
  [s, control] = await Promise.all([spawnServer({ HEARTBEAT_MS: String(HEARTBEAT_MS) }), spawnServer()]);
});
afterAll(() => Promise.all([s.stop(), control.stop()]));

/** Flood `raw` with pings (and an unsolicited pong every 500 ms) without reading; resolves when it is closed. */
async function flood(raw: RawStream): Promise<number> {
  const started = performance.now();
  raw.socket.pause();
  raw.socket.on('error', () => undefined);
  let closed = false;
  void raw.closed.then(() => (closed = true));
  let lastPong = started;
  while (!closed && !raw.socket.destroyed) {
    raw.socket.write(BURST);
    if (performance.now() - lastPong >= 500) {
      raw.socket.write(UNSOLICITED_PONG);
      lastPong = performance.now();
    }
    await new Promise((r) => setTimeout(r, 10));
    if (performance.now() - started > 20 * HEARTBEAT_MS) break;
  }
  return performance.now() - started;
}

describe('ping flood without reading (issue 22)', () => {
  it(`${FLOODERS} addresses ping and never read: RSS +<50 MB, each reset within the heartbeat's two missed pongs, a good client's requests <250 ms during and after (or twice a control client's on the same machine)`, async () => {
    const moves = moveBooks(s);
    const good = startGoodClient(s.port);
    const controlClient = startGoodClient(control.port, '127.0.0.3');
    await new Promise((r) => setTimeout(r, 500));
    const rssBefore = s.rssKiB();
    let rssMax = rssBefore;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, s.rssKiB())), 100);
    const attackFrom = performance.now();
    let lasted: number[];
    try {
      const raws = await Promise.all(
        Array.from({ length: FLOODERS }, (_, i) => openRawStream(s.port, QUERY, `127.0.5.${1 + i}`)),
      );
      lasted = await Promise.all(raws.map(flood));
    } finally {
      clearInterval(sampler);
    }
    const attackTo = performance.now();
    // After the flooders are gone, the server is at once what it was: no backlog to tear down.
    await new Promise((r) => setTimeout(r, 1500));
    const figures = await good.stop();
    const noise = await controlClient.stop();
    await moves.stop();

    expect((rssMax - rssBefore) / 1024).toBeLessThan(50);
    // Two missed heartbeats: reset at the second or third ping after the flood began.
    for (const ms of lasted) expect(ms).toBeLessThan(3 * HEARTBEAT_MS + 1500);
    const during = askedBetween(figures, attackFrom, attackTo);
    const after = askedBetween(figures, attackTo);
    expect(during.length).toBeGreaterThan(5);
    expect(after.length).toBeGreaterThan(5);
    expect([...during, ...after].filter((a) => a.status !== 200)).toEqual([]);
    const machine = worstMs(askedBetween(noise, attackFrom));
    const bound = boundFor(250, machine);
    console.log(
      `ping flood: good client worst ${worstMs(during).toFixed(0)} ms during, ${worstMs(after).toFixed(0)} ms after; control ${machine.toFixed(0)} ms; bound ${bound.toFixed(0)} ms; RSS +${((rssMax - rssBefore) / 1024).toFixed(1)} MB; flooders reset after ${lasted.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    );
    expect(worstMs(during)).toBeLessThan(bound);
    expect(worstMs(after)).toBeLessThan(bound);
    // Its own stream kept receiving the moves (one every 200 ms) throughout.
    expect(figures.streamOpen).toBe(true);
    expect(longestFrameGap(figures, attackFrom, performance.now() - 300)).toBeLessThan(1500);
  });
});
