import type { BookRecord, EventRecord } from '@app/events';
import { EmbeddedLog } from '@app/event-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findQuote } from '@app/audit';
import { replayQuote } from '@app/audit';
import { StepClock } from '../replay/support/journal-scenario';
import { call, openStream, postJson } from './support/http';
import { book, market, T0, venue } from '../support/records';
import { startTestServer, type TestServer } from './support/server';

// asOf on /route and /orderbook: the books as they were at a past instant, rebuilt from the log.
const T1 = T0;
const T2 = T0 + 10_000;
const T3 = T0 + 20_000;
const NOW = T0 + 25_000;

const delta = (asks: [number, number][], sequence: number, receivedAt: number): BookRecord => ({
  ...book('alpha', 'BTC/USDT', [], asks, sequence, receivedAt),
  snapshot: false,
});

/** alpha BTC/USDT: ask 100 at T1, a delta adding ask 99 at T2, a snapshot with ask 98 at T3. */
function history(): EventRecord[] {
  return [
    venue('alpha'),
    market('alpha', 'BTC/USDT'),
    market('alpha', 'ETH/BTC'),
    book('alpha', 'BTC/USDT', [[95, 5]], [[100, 5]], 1, T1),
    delta([[99, 1]], 2, T2),
    book('alpha', 'ETH/BTC', [[0.049, 10]], [[0.05, 10]], 1, T2),
    book('alpha', 'BTC/USDT', [[96, 5]], [[98, 5]], 3, T3),
  ];
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, history(), new StepClock(NOW));
});
afterAll(() => s.close());

const orderbook = (asOf: number | string) => call(s.url, `/orderbook/alpha/BTC%2FUSDT?asOf=${asOf}`);
const route = (asOf: number | string) => call(s.url, `/route?from=USDT&to=BTC&amountIn=50&asOf=${asOf}`);

describe('asOf between two records returns the earlier state', () => {
  it('/orderbook: the book of the last record at or before the instant', async () => {
    const between = await orderbook(T1 + 5_000);
    expect(between.status).toBe(200);
    expect(between.body).toEqual({
      exchangeId: 'alpha',
      symbol: 'BTC/USDT',
      bids: [{ price: 95, amount: 5 }],
      asks: [{ price: 100, amount: 5 }],
      exchangeTimestamp: null,
      receivedAt: T1,
      sequence: 1,
    });
    // At the delta's own instant the delta counts; between the delta and the next snapshot too.
    for (const at of [T2, T2 + 1, T3 - 1]) {
      const r = await orderbook(at);
      expect(r.body.asks).toEqual([
        { price: 99, amount: 1 },
        { price: 100, amount: 5 },
      ]);
      expect(r.body.sequence).toBe(2);
    }
    expect((await orderbook(NOW)).body.asks).toEqual([{ price: 98, amount: 5 }]);
    // Live (no asOf) is the current book.
    expect((await call(s.url, '/orderbook/alpha/BTC/USDT')).body.sequence).toBe(3);
  });

  it('/route quotes the earlier books with the instant as its clock, and is journalled with asOf', async () => {
    const r = await route(T2 - 1);
    expect(r.status).toBe(200);
    expect(r.body.calculatedAt).toBe(T2 - 1);
    expect(r.body.hops[0].legs[0].averagePrice).toBe(100);
    const later = await route(T2 + 1);
    expect(later.body.hops[0].legs[0].averagePrice).toBe(99);
    const viaPost = await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 50, asOf: T3 });
    expect(viaPost.body.hops[0].legs[0].averagePrice).toBe(98);
    // The instant is the clock: 9 s after T1 the T1 book is still fresh under the 10 s cutoff.
    expect((await route(T1 + 9_000)).body.unroutableReason).toBeNull();
    // ETH/BTC was listed at T1 but its first book came at T2.
    const eth = await call(s.url, `/route?from=BTC&to=ETH&amountIn=1&bridges=&asOf=${T1 + 1}`);
    expect(eth.body.unroutableReason).toBe('all_books_stale');
    expect(
      (await call(s.url, `/route?from=BTC&to=ETH&amountIn=1&bridges=&asOf=${T2}`)).body.unroutableReason,
    ).toBeNull();

    await s.server.journal.flush();
    const reader = new EmbeddedLog({ dataDir: s.dataDir });
    try {
      const found = await findQuote(reader, r.headers.get('x-request-id')!);
      expect(found!.record.request.asOf).toBe(T2 - 1);
      expect(found!.record.calculatedAt).toBe(T2 - 1);
      const replay = await replayQuote(reader, found!.record);
      expect(replay.identical).toBe(true);
      expect(JSON.parse(replay.body)).toEqual(r.body);
    } finally {
      await reader.close();
    }
  });

  it('/orderbook at an instant before the book existed is 404', async () => {
    const r = await call(s.url, `/orderbook/alpha/ETH%2FBTC?asOf=${T2 - 1}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: `no order book for alpha:ETH/BTC at asOf ${T2 - 1}` });
    expect((await call(s.url, `/orderbook/alpha/ETH%2FBTC?asOf=${T2}`)).status).toBe(200);
  });
});

describe('asOf validation', () => {
  it('must be a plain integer, not in the future, not before the log reaches', async () => {
    for (const bad of ['1.5', 'abc', '-5', '1e12', ''])
      for (const r of [await route(bad), await orderbook(bad)]) {
        expect(r.status).toBe(400);
        expect(r.body.error).toMatch(/^asOf must be a plain integer of epoch milliseconds/);
      }
    const future = await route(NOW + 1);
    expect(future.status).toBe(400);
    expect(future.body).toEqual({ error: `asOf ${NOW + 1} is in the future (service clock ${NOW})` });
    expect((await orderbook(NOW + 1)).status).toBe(400);
    const early = await route(T0 - 1);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(
      new RegExp(
        `^asOf ${T0 - 1} \\(.*\\) is before the oldest state the event log holds: it reaches back to ${T0} `,
      ),
    );
    expect((await orderbook(T0 - 1)).status).toBe(400);
    const twice = await call(s.url, `/route?from=USDT&to=BTC&amountIn=1&asOf=${T2}&asOf=${T3}`);
    expect(twice.body).toEqual({ error: "parameter 'asOf' must not be repeated" });
    expect((await call(s.url, `/orderbook/alpha/BTC%2FUSDT?asOf=${T2}&asOf=${T3}`)).status).toBe(400);
    expect((await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 1, asOf: 1.5 })).status).toBe(400);
  });

  it('the stream refuses asOf', async () => {
    const st = openStream(s.url.replace('http', 'ws'), `from=USDT&to=BTC&amountIn=1&asOf=${T2}`);
    expect(await st.next()).toEqual({
      error: 'asOf is not available on the stream (a stream follows the live books)',
      code: 1008,
      reason: 'invalid request',
    });
    expect((await st.closed).code).toBe(1008);
  });
});
