/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- JSON bodies are checked by the assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, sleep, UUID } from './support/http';
import { book } from '../support/records';
import { startTestServer, type TestServer } from './support/server';
import { T0 } from '@test/support';

// GET /stream/route lifecycle (spec 3, 6; clarifications 11) through real ws clients.
let s: TestServer;
let seq = 1;
beforeAll(async () => {
  s = await startTestServer({ streamMaxPerIp: 3 });
});
afterAll(() => s.close());

const Q = 'from=USDT&to=BTC&amountIn=100.1&bridges=';
/** Replace alpha's BTC/USDT book with a single ask at `ask` (a dependent move). */
const moveAlpha = (ask: number) => s.write([book('alpha', 'BTC/USDT', [[ask - 1, 1]], [[ask, 5]], ++seq)]);

async function expectRefused(query: string, code: number, reason: string, error: RegExp) {
  const st = openStream(s.wsUrl, query);
  const frame = await st.next();
  expect(frame).toEqual({ error: expect.stringMatching(error), code, reason });
  expect(await st.closed).toEqual({ code, reason });
  expect(st.frames).toHaveLength(1);
}

describe('refusals: an error frame, then the close', () => {
  it('invalid parameters: 1008 invalid request with the REST 400 message', async () => {
    await expectRefused(
      'from=USDT&to=BTC',
      1008,
      'invalid request',
      /^exactly one of amountIn and amountOut must be supplied$/,
    );
    await expectRefused(`${Q}&amountIn=2`, 1008, 'invalid request', /must not be repeated/);
  });

  it('balances are not available on the stream: 1008 invalid request', async () => {
    await expectRefused(
      `${Q}&balances=USDT:1`,
      1008,
      'invalid request',
      /^balances is not available on the stream$/,
    );
  });

  it('no market: 1008 no_market', async () => {
    await expectRefused('from=USDT&to=DOGE&amountIn=1', 1008, 'no_market', /no market/);
  });

  it('exact-out over a bridge: 1008 exact_out_multi_hop_unsupported', async () => {
    await expectRefused(
      'from=USDT&to=ETH&amountOut=1',
      1008,
      'exact_out_multi_hop_unsupported',
      /re-ask with amountIn/,
    );
  });

  it('per-IP cap (STREAM_MAX_PER_IP=3): the 4th gets 1013 connection limit reached; a closed slot is reusable', async () => {
    const open = [openStream(s.wsUrl, Q), openStream(s.wsUrl, Q), openStream(s.wsUrl, Q)];
    await Promise.all(open.map((o) => o.next()));
    await expectRefused(
      Q,
      1013,
      'connection limit reached',
      /^connection limit reached: at most 3 concurrent streams per IP$/,
    );
    open[0]!.ws.close();
    await open[0]!.closed;
    await sleep(20);
    const again = openStream(s.wsUrl, Q);
    expect((await again.next()).unroutableReason).toBeNull();
    again.ws.close();
    for (const o of open.slice(1)) o.ws.close();
    await Promise.all([again.closed, ...open.map((o) => o.closed)]);
    await sleep(20);
  });
});

describe('frames', () => {
  it('pushes the current result on open: a bare RouteResult, own requestId, includeQuotes off by default', async () => {
    const st = openStream(s.wsUrl, Q);
    const first = await st.next();
    expect(first.requestId).toMatch(UUID);
    expect(first.amountOut).toBeCloseTo(1, 9);
    expect(first.hops[0].quotes).toBeUndefined();
    st.ws.close();
    const withQuotes = openStream(s.wsUrl, `${Q}&includeQuotes=true`);
    expect((await withQuotes.next()).hops[0].quotes).toHaveLength(2);
    withQuotes.ws.close();
    await Promise.all([st.closed, withQuotes.closed]);
  });

  it('pushes after a dependent book moves, and not after an unrelated one', async () => {
    const st = openStream(s.wsUrl, Q);
    await st.next();
    await sleep(150);
    await s.write([book('alpha', 'XRP/USDT', [[0.5, 10]], [[0.6, 10]], 2)]);
    expect(await st.quiet(300)).toBe(true);
    await moveAlpha(50);
    const pushed = await st.next(1000);
    // 100.1 USDT at 50 x 1.001 per BTC on alpha.
    expect(pushed.amountOut).toBeCloseTo(100.1 / (50 * 1.001), 9);
    expect(pushed.requestId).toMatch(UUID);
    st.ws.close();
    await st.closed;
  });

  it('three moves inside 100 ms coalesce into one frame carrying the last state; the floor is kept', async () => {
    const st = openStream(s.wsUrl, Q);
    const opened = await st.next();
    const openedAt = performance.now();
    // Right after the initial frame, so all three fall inside the 100 ms floor.
    await moveAlpha(60);
    await moveAlpha(70);
    await moveAlpha(80);
    expect(performance.now() - openedAt).toBeLessThan(100);
    const frame = await st.next(1000);
    const gap = performance.now() - openedAt;
    expect(frame.amountOut).toBeCloseTo(100.1 / (80 * 1.001), 9);
    expect(gap).toBeGreaterThanOrEqual(80);
    expect(await st.quiet(250)).toBe(true);
    expect(st.frames).toHaveLength(2);
    expect(frame.requestId).not.toBe(opened.requestId);
    st.ws.close();
    await st.closed;
  });

  it('leading edge: the first move after a quiet period is pushed at once', async () => {
    const st = openStream(s.wsUrl, Q);
    await st.next();
    await sleep(200);
    const t = performance.now();
    await moveAlpha(90);
    const frame = await st.next(1000);
    expect(performance.now() - t).toBeLessThan(60);
    expect(frame.amountOut).toBeCloseTo(100.1 / (90 * 1.001), 9);
    st.ws.close();
    await st.closed;
  });

  it('a newly listed market can become the route: the watch set follows listings', async () => {
    const st = openStream(s.wsUrl, 'from=USDT&to=ETH&amountIn=100.1');
    const first = await st.next();
    expect(first.hops.map((h: { pair: string }) => h.pair)).toEqual(['BTC/USDT', 'ETH/BTC']);
    await sleep(150);
    // ETH/USDT appears on beta, cheap enough to beat the bridge.
    await s.write([
      {
        v: 1,
        type: 'market',
        exchangeId: 'beta',
        symbol: 'ETH/USDT',
        base: 'ETH',
        quote: 'USDT',
        takerFeeRate: 0.001,
        receivedAt: T0,
      },
      book('beta', 'ETH/USDT', [[1, 100]], [[1.5, 1000]], 1),
    ]);
    const frame = await st.next(1000);
    expect(frame.hops.map((h: { pair: string }) => h.pair)).toEqual(['ETH/USDT']);
    st.ws.close();
    await st.closed;
  });

  it('identical subscriptions share one solve per tick', async () => {
    const subs = [
      openStream(s.wsUrl, Q),
      openStream(s.wsUrl, Q),
      openStream(s.wsUrl, `${Q}&includeQuotes=false`),
    ];
    await Promise.all(subs.map((x) => x.next()));
    await sleep(150);
    const before = s.server.streamStats();
    expect(before.groups).toBe(1);
    await moveAlpha(95);
    const frames = await Promise.all(subs.map((x) => x.next(1000)));
    expect(s.server.streamStats().solves - before.solves).toBe(1);
    expect(new Set(frames.map((f) => f.requestId)).size).toBe(3);
    for (const x of subs) x.ws.close();
    await Promise.all(subs.map((x) => x.closed));
  });
});
