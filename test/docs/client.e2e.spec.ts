import { connect as tcpConnect, createServer, type Socket } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openRouteStream,
  RouteStreamV2,
  type ResumeVerdict,
  type RouteResult,
  type SendingWebSocket,
  type StreamErrorFrame,
  type V2Quote,
  type WebSocketLike,
} from '@app/client';
import { apiClient } from '../api/support/http';
import { assertDocumentedFrame } from '../api/support/contract';
import { startTestServer, type TestServer } from '../api/support/server';

// The generated client against a real server: POST with each balances form, and the stream helper
// (frames and a refusal), every answer checked against the documents.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const connect = (url: string): WebSocketLike => new WebSocket(url) as unknown as WebSocketLike;

describe('@app/client', () => {
  it('POST /route takes balances as text, array or object, with the same result', async () => {
    const api = apiClient(s.url);
    const base = { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] as string[] };
    const forms = ['USDT:50', ['USDT:50'], { USDT: 50 }] as const;
    const results = await Promise.all(
      forms.map((balances) => api.POST('/route', { body: { ...base, balances: balances as never } })),
    );
    for (const r of results) expect(r.response.status).toBe(200);
    const outs = results.map((r) => r.data?.amountOut);
    expect(outs[0]).toBeGreaterThan(0);
    expect(new Set(outs).size).toBe(1);
    const refused = await api.POST('/route', { body: { ...base, amountOut: 1 } as never });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({ error: 'exactly one of amountIn and amountOut must be supplied' });
  });

  it('openRouteStream hands over route frames, and a refusal as an error frame then its close', async () => {
    const frames: RouteResult[] = [];
    const live = openRouteStream(
      s.url,
      { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] },
      {
        onFrame: (r) => frames.push(r),
      },
      connect,
    );
    await expect.poll(() => frames.length, { timeout: 5000 }).toBeGreaterThan(0);
    assertDocumentedFrame(frames[0]);
    expect(frames[0]).toMatchObject({ from: 'USDT', to: 'BTC', exactSide: 'in' });
    live.close();
    expect((await live.closed).code).toBe(1000);

    const errors: StreamErrorFrame[] = [];
    const refused = openRouteStream(
      s.url,
      { from: 'USDT', to: 'USDT', amountIn: 1 },
      {
        onFrame: () => undefined,
        onError: (e) => errors.push(e),
      },
      connect,
    );
    expect(await refused.closed).toEqual({ code: 1008, reason: 'invalid request' });
    expect(errors).toEqual([
      { error: 'from and to must differ (both are USDT)', code: 1008, reason: 'invalid request' },
    ]);
  });

  it('RouteStreamV2: welcome, quotes with contiguous seq; after a dropped connection it reconnects and resumes', async () => {
    const sockets: WebSocket[] = [];
    const quotes: V2Quote[] = [];
    const subscribed: [string, ResumeVerdict | null][] = [];
    const gaps: unknown[] = [];
    const stream = new RouteStreamV2(
      s.url,
      {
        onQuote: (q) => quotes.push(q),
        onSubscribed: (_id, streamId, resume) => subscribed.push([streamId, resume]),
        onGap: (...g) => gaps.push(g),
      },
      {
        connect: (url, protocol) => {
          const ws = new WebSocket(url, protocol);
          sockets.push(ws);
          return ws as unknown as SendingWebSocket;
        },
        random: () => 0.5,
        reconnectMs: { first: 400, max: 1000 },
      },
    );
    stream.subscribe('btc', { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] });
    await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(1);
    expect(quotes[0]).toMatchObject({ id: 'btc', seq: 1, cause: { kind: 'open' } });
    expect(subscribed[0]![1]).toBeNull();
    // The connection drops (no close frame): the client reconnects and resumes from seq 1.
    sockets[0]!.terminate();
    await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(2);
    expect(sockets).toHaveLength(2);
    expect(subscribed[1]![1]).toEqual({ resumed: true, missedFrames: 0 });
    expect(quotes[1]).toMatchObject({ seq: 1, cause: { kind: 'resume' }, streamId: subscribed[1]![0] });
    expect(gaps).toEqual([]);
    stream.close();
  });

  it("RouteStreamV2 honours goaway: after a server's stop it reconnects no sooner than the pause the server asked for", async () => {
    const own = await startTestServer();
    const connects: number[] = [];
    const quotes: V2Quote[] = [];
    let goaway: { at: number; reconnectAfterMs: number } | null = null;
    const stream = new RouteStreamV2(
      own.url,
      { onQuote: (q) => quotes.push(q) },
      {
        connect: (url, protocol) => {
          connects.push(Date.now());
          const ws = new WebSocket(url, protocol);
          ws.addEventListener('message', (e) => {
            const m = JSON.parse(e.data as string) as { type: string; reconnectAfterMs?: number };
            if (m.type === 'goaway') goaway = { at: Date.now(), reconnectAfterMs: m.reconnectAfterMs! };
          });
          return ws as unknown as SendingWebSocket;
        },
        // No jitter and a short backoff: any pause beyond 50 ms is goaway's.
        random: () => 1,
        reconnectMs: { first: 50, max: 50 },
      },
    );
    try {
      stream.subscribe('btc', { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] });
      await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(1);
      // A graceful stop: goaway, then close 1001; the server is gone when the client comes back.
      await own.close();
      await expect.poll(() => connects.length, { timeout: 5000 }).toBe(2);
      expect(goaway).not.toBeNull();
      const { at, reconnectAfterMs } = goaway!;
      expect(reconnectAfterMs).toBeGreaterThan(0);
      expect(connects[1]! - at).toBeGreaterThanOrEqual(reconnectAfterMs);
      expect(connects[1]! - at).toBeLessThan(reconnectAfterMs + 50 + 2000);
    } finally {
      stream.close();
    }
  });

  it('RouteStreamV2 keeps a quiet connection (heartbeats) and replaces a frozen one within two heartbeats', async () => {
    const own = await startTestServer({ heartbeatMs: 300 });
    const proxy = await freezingProxy(Number(new URL(own.url).port));
    const connects: number[] = [];
    const quotes: V2Quote[] = [];
    const subscribed: ResumeVerdict[] = [];
    const stream = new RouteStreamV2(
      `http://127.0.0.1:${proxy.port}`,
      { onQuote: (q) => quotes.push(q), onSubscribed: (_id, _s, r) => r !== null && subscribed.push(r) },
      {
        connect: (url, protocol) => {
          connects.push(performance.now());
          return new WebSocket(url, protocol) as unknown as SendingWebSocket;
        },
        random: () => 0,
        reconnectMs: { first: 50, max: 50 },
      },
    );
    try {
      stream.subscribe('btc', { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] });
      await expect.poll(() => quotes.length, { timeout: 5000 }).toBe(1);
      // No book moves: only heartbeats arrive, for longer than the watchdog's 2 x 300 + 1,000 ms.
      await new Promise((r) => setTimeout(r, 2500));
      expect(connects).toHaveLength(1);
      // The path goes silent without closing (a dead NAT entry, a frozen peer): no close ever comes.
      const frozenAt = performance.now();
      proxy.freeze();
      await expect.poll(() => quotes.length, { timeout: 6000 }).toBe(2);
      expect(connects).toHaveLength(2);
      expect(connects[1]! - frozenAt).toBeLessThan(2 * 300 + 1000 + 1000);
      // The server drops the frozen socket too once its pings go unanswered: then it proves the
      // resume (it sent seq 1 only); if the client is back first, nothing is proven. Either way
      // the state comes first.
      expect(subscribed).toHaveLength(1);
      expect([
        { resumed: true, missedFrames: 0 },
        { resumed: false, reason: 'still_open' },
      ]).toContainEqual(subscribed[0]);
      expect(quotes[1]).toMatchObject({ seq: 1, cause: { kind: 'resume' } });
    } finally {
      stream.close();
      proxy.close();
      await own.close();
    }
  });
});

/** A TCP proxy to `port` whose open connections can be frozen: nothing passes, nothing closes. */
async function freezingProxy(port: number): Promise<{ port: number; freeze(): void; close(): void }> {
  const all: [Socket, Socket][] = [];
  let live: [Socket, Socket][] = [];
  const server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    all.push([client, upstream]);
    live.push([client, upstream]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => {
      for (const [client, upstream] of live) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      live = [];
    },
    close: () => {
      server.close();
      for (const [client, upstream] of all) {
        client.destroy();
        upstream.destroy();
      }
    },
  };
}
