/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- messages are checked by the assertions */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedLog } from '@app/event-log';
import { findQuote, replayQuote } from '@app/audit';
import { T0 } from '../support/records';
import { ReplayClock } from '../../apps/api/src/clock';
import { call, sleep } from './support/http';
import { startTestServer, type TestServer } from './support/server';
import {
  alphaMover,
  ofType,
  openV2,
  resultText,
  ROUTE,
  type Message,
  type V2Client,
} from './support/stream-v2';

// GET /stream (routestream.v2) through real ws clients: multiplexing, seq, ticksSkipped, the
// result's hash and replay, resume verdicts, subprotocol negotiation; v1 frames unchanged.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ streamMaxPerIp: 10 });
});
afterAll(() => s.close());

const moveAlpha = alphaMover(() => s);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Subscribe `id` to ROUTE with amountIn 100 + n (ids are a letter and n) and wait for the answer. */
async function subscribe(c: V2Client, id: string, extra: Record<string, unknown> = {}): Promise<Message> {
  c.send({ type: 'subscribe', id, route: { ...ROUTE, amountIn: 100 + Number(id.slice(1)) }, ...extra });
  return c.take(ofType('subscribed', id));
}

describe('handshake', () => {
  it('welcome first: protocol, heartbeat, push floor, resume window, limits', async () => {
    const c = await openV2(s.wsUrl);
    expect(c.ws.protocol).toBe('routestream.v2');
    const welcome = await c.take(() => true);
    expect(welcome).toMatchObject({
      type: 'welcome',
      protocol: 'routestream.v2',
      heartbeatMs: 15_000,
      pushFloorMs: 100,
      resumeWindowMs: 120_000,
      limits: {
        subscriptionsPerAddress: 10,
        messagesPerSec: 5,
        messagesBurst: 10,
        messageBytes: 8192,
        subscribesPerMin: 60,
      },
    });
    c.ws.close();
    await c.closed;
  });

  it('no subprotocol or a foreign one is refused with a JSON 400, never a 101 that echoes it', async () => {
    for (const offered of [[], ['graphql-ws'], ['graphql-ws', 'chat']]) {
      const refused = await openV2(s.wsUrl, offered).then(
        () => null,
        (e: { status: number; body: string }) => e,
      );
      expect(refused?.status).toBe(400);
      expect(JSON.parse(refused!.body)).toEqual({
        error: '/stream speaks the subprotocol routestream.v2: offer it in Sec-WebSocket-Protocol',
      });
    }
    // The one-route stream speaks none: an offered protocol is refused too.
    const v1 = await openV2(s.wsUrl, ['graphql-ws'], '/stream/route?from=USDT&to=BTC&amountIn=1').then(
      () => null,
      (e: { status: number; body: string }) => e,
    );
    expect(v1?.status).toBe(400);
    expect(JSON.parse(v1!.body)).toEqual({
      error:
        '/stream/route speaks no subprotocol (offered: "graphql-ws"); routestream.v2 is served at /stream',
    });
  });
});

describe('multiplexing', () => {
  it('10 subscriptions on one socket flow with contiguous seq; the 11th is refused, the 10 keep flowing', async () => {
    const c = await openV2(s.wsUrl);
    const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
    const streamIds = new Set<string>();
    for (const id of ids) {
      const sub = await subscribe(c, id);
      streamIds.add(sub.streamId);
      expect(sub.request).toMatchObject({ from: 'USDT', to: 'BTC' });
      expect(await c.take(ofType('quote', id))).toMatchObject({
        seq: 1,
        tick: 1,
        ticksSkipped: 0,
        cause: { kind: 'open' },
      });
    }
    expect(streamIds.size).toBe(10);
    await sleep(250); // the 10 subscribes took the message burst
    c.send({ type: 'subscribe', id: 'r10', route: ROUTE });
    expect(await c.take(ofType('error', 'r10'))).toMatchObject({
      op: 'subscribe',
      code: 'subscription_limit',
      status: 429,
    });
    for (const [n, ask] of [
      [2, 50_100],
      [3, 50_200],
    ] as const) {
      await sleep(120);
      await moveAlpha(ask);
      for (const id of ids) {
        const q = await c.take(ofType('quote', id));
        expect(q).toMatchObject({ seq: n, ticksSkipped: 0, cause: { kind: 'book', markets: ['BTC/USDT'] } });
      }
    }
    c.send({ type: 'list' });
    const list = await c.take(ofType('subscriptions'));
    expect(list.subscriptions.map((x: Message) => [x.id, x.seq])).toEqual(ids.map((id) => [id, 3]));
    c.ws.close();
    await c.closed;
    await sleep(20);
  });

  it("bad messages get an error naming id and op; the socket stays open; a bad route has REST's 400 text", async () => {
    const c = await openV2(s.wsUrl);
    c.send('{"type":"subscribe","id":"a","id":"b"}');
    expect(await c.take(ofType('error'))).toMatchObject({
      code: 'bad_message',
      message: expect.stringMatching(/repeated|duplicate/i),
    });
    c.send({ type: 'subscribe', id: 'x', route: { from: 'USDT', to: 'BTC' } });
    const rest = await call(s.url, '/route?from=USDT&to=BTC');
    expect(await c.take(ofType('error', 'x'))).toEqual({
      type: 'error',
      id: 'x',
      op: 'subscribe',
      code: 'invalid_request',
      status: 400,
      message: (rest.body as { error: string }).error,
    });
    c.send({ type: 'subscribe', id: 'y', route: { ...ROUTE, balances: 'USDT:1' } });
    expect(await c.take(ofType('error', 'y'))).toMatchObject({
      message: 'balances is not available on the stream',
    });
    c.send({ type: 'unsubscribe', id: 'nope' });
    expect(await c.take(ofType('error', 'nope'))).toMatchObject({ op: 'unsubscribe', code: 'unknown_id' });
    c.send({ type: 'ping', id: 'p1' });
    expect(await c.take(ofType('pong', 'p1'))).toMatchObject({ serverTime: expect.any(Number) });
    // Over the message rate: those over the limit are refused, not read.
    for (let i = 0; i < 14; i++) c.send({ type: 'ping', id: `f${i}` });
    await c.take((m) => m.type === 'error' && m.code === 'rate_limited');
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    c.ws.close();
    await c.closed;
  });

  it('persistent abuse closes 1008', async () => {
    const c = await openV2(s.wsUrl);
    for (let i = 0; i < 40; i++) c.send('not json');
    expect((await c.closed).code).toBe(1008);
  });
});

describe('quote messages', () => {
  it('resultSha256 is the SHA-256 of the result bytes, and replay quote reproduces them', async () => {
    const c = await openV2(s.wsUrl);
    await subscribe(c, 'h1');
    const q = await c.take(ofType('quote', 'h1'));
    const text = resultText(c.raw[c.messages.indexOf(q)]!);
    expect(sha256(text)).toBe(q.resultSha256);
    expect(JSON.stringify(q.result)).toBe(text);
    expect(q.validUntil).toBeGreaterThan(q.result.calculatedAt);
    c.ws.close();
    await s.server.journal.flush();
    const reader = new EmbeddedLog({ dataDir: s.dataDir });
    try {
      const found = await findQuote(reader, q.result.requestId);
      const replay = await replayQuote(reader, found!.record);
      expect(replay.identical).toBe(true);
      expect(replay.body).toBe(text);
    } finally {
      await reader.close();
    }
  });

  it('a reader slower than the books: ticksSkipped counts replaced states, tick(n) - tick(n-1) - 1 = ticksSkipped(n)', async () => {
    const c = await openV2(s.wsUrl);
    await subscribe(c, 's1', { minIntervalMs: 700 });
    const first = await c.take(ofType('quote', 's1'));
    for (let i = 1; i <= 4; i++) {
      await sleep(130);
      await moveAlpha(50_300 + i);
    }
    const next = await c.take(ofType('quote', 's1'));
    expect(next.seq).toBe(first.seq + 1);
    expect(next.ticksSkipped).toBeGreaterThan(0);
    expect(next.tick - first.tick - 1).toBe(next.ticksSkipped);
    c.ws.close();
    await c.closed;
  });

  it('v1 frames are unchanged: byte for byte the REST body under the frame requestId', async () => {
    const v1 = await openV2(s.wsUrl, [], '/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=');
    const frame = await v1.take(() => true);
    const raw = v1.raw[0]!;
    // The stream's default includeQuotes is false; REST's is true.
    const rest = await fetch(`${s.url}/route?from=USDT&to=BTC&amountIn=100.1&bridges=&includeQuotes=false`, {
      headers: { 'x-request-id': frame.requestId as string },
    });
    expect(await rest.text()).toBe(raw);
    // The v2 quote of the same route carries the same text under its own requestId.
    const c = await openV2(s.wsUrl);
    c.send({ type: 'subscribe', id: 'v', route: ROUTE });
    const q = await c.take(ofType('quote', 'v'));
    const text = resultText(c.raw[c.messages.indexOf(q)]!);
    expect(text.replace(q.result.requestId, frame.requestId as string)).toBe(raw);
    v1.ws.close();
    c.ws.close();
    await Promise.all([v1.closed, c.closed]);
  });
});

describe('resume', () => {
  it('a client that drops and resumes gets resumed true with the exact missedFrames; each refusal reason', async () => {
    const a = await openV2(s.wsUrl);
    const opened = await subscribe(a, 'm1');
    await a.take(ofType('quote', 'm1'));
    await sleep(120);
    await moveAlpha(50_400);
    const last = await a.take(ofType('quote', 'm1'));
    expect(last.seq).toBe(2);
    a.ws.terminate();
    await a.closed;
    await sleep(20);
    const b = await openV2(s.wsUrl);
    const streamId = opened.streamId as string;
    const resumed = await subscribe(b, 'm1', { resume: { streamId, seq: 1 } });
    expect(resumed.resume).toEqual({ resumed: true, missedFrames: 1 });
    expect(resumed.streamId).not.toBe(streamId);
    expect(await b.take(ofType('quote', 'm1'))).toMatchObject({ seq: 1, cause: { kind: 'resume' } });
    const cases: [string, unknown, string][] = [
      ['n1', { streamId: randomUUID(), seq: 0 }, 'unknown_stream'],
      ['a1', { streamId, seq: 3 }, 'seq_ahead'],
    ];
    for (const [id, resume, reason] of cases)
      expect((await subscribe(b, id, { resume })).resume).toEqual({ resumed: false, reason });
    b.send({ type: 'subscribe', id: 'x', route: { ...ROUTE, amountIn: 7 }, resume: { streamId, seq: 0 } });
    expect((await b.take(ofType('subscribed', 'x'))).resume).toEqual({
      resumed: false,
      reason: 'request_mismatch',
    });
    b.ws.close();
    await b.closed;
  });
});

describe('STREAM_RESUME_WINDOW_MS', () => {
  it('the welcome states the configured window; a resume at its last millisecond is proven, one past it expired', async () => {
    const clock = new ReplayClock();
    clock.advance(T0);
    const w = await startTestServer({ streamMaxPerIp: 10, resumeWindowMs: 1_000 }, undefined, clock);
    try {
      const a = await openV2(w.wsUrl);
      expect(await a.take(() => true)).toMatchObject({ type: 'welcome', resumeWindowMs: 1_000 });
      const first = (await subscribe(a, 'w1')).streamId as string;
      const second = (await subscribe(a, 'w2')).streamId as string;
      await a.take(ofType('quote', 'w1'));
      await a.take(ofType('quote', 'w2'));
      a.ws.terminate();
      await a.closed;
      await sleep(20);
      // Both streams closed at the service clock's T0; the verdict reads the clock, not the wall.
      const b = await openV2(w.wsUrl);
      clock.advance(T0 + 1_000);
      expect((await subscribe(b, 'w1', { resume: { streamId: first, seq: 1 } })).resume).toEqual({
        resumed: true,
        missedFrames: 0,
      });
      clock.advance(T0 + 1_001);
      expect((await subscribe(b, 'w2', { resume: { streamId: second, seq: 1 } })).resume).toEqual({
        resumed: false,
        reason: 'expired',
      });
      b.ws.close();
      await b.closed;
    } finally {
      await w.close();
    }
  });
});

describe('envelope=v2 on /stream/route', () => {
  const Q = '/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=&envelope=v2';

  it('the client sends nothing: subscribed, then quotes in the v2 envelope; resume in the URL', async () => {
    const a = await openV2(s.wsUrl, [], Q);
    const opened = await a.take(ofType('subscribed', 'route'));
    expect(opened.resume).toBeNull();
    expect(await a.take(ofType('quote', 'route'))).toMatchObject({ seq: 1, cause: { kind: 'open' } });
    a.ws.close();
    await a.closed;
    await sleep(20);
    const b = await openV2(s.wsUrl, [], `${Q}&resume=${opened.streamId}.1`);
    expect((await b.take(ofType('subscribed', 'route'))).resume).toEqual({ resumed: true, missedFrames: 0 });
    expect(await b.take(ofType('quote', 'route'))).toMatchObject({ seq: 1, cause: { kind: 'resume' } });
    b.ws.close();
    await b.closed;
  });

  it('a bad envelope or resume is refused like any invalid parameter', async () => {
    for (const [query, error] of [
      [`${Q.replace('v2', 'v3')}`, "envelope must be 'v2' (the routestream.v2 envelope)"],
      [`${Q}&resume=abc`, 'resume must be <streamId>.<seq>: a streamId this server sent and a seq'],
      [
        `${Q.replace('&envelope=v2', '')}&resume=${randomUUID()}.1`,
        "envelope must be 'v2' (the routestream.v2 envelope)",
      ],
    ]) {
      const c = await openV2(s.wsUrl, [], query);
      expect(await c.take(() => true)).toEqual({ error, code: 1008, reason: 'invalid request' });
      expect((await c.closed).code).toBe(1008);
    }
  });
});
