/* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- JSON bodies are checked by the assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteQuery } from '@app/client';
import { apiClient, call, postJson, UUID, type Answer } from './support/http';
import { T0 } from '../support/records';
import { startTestServer, type TestServer } from './support/server';

// Statuses, unroutable reasons, headers and hand-computed routes over the fixture world
// (test/api/support/world.ts); the clock is pinned at T0.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

// GET /route through the generated client (@app/client): its types come from the OpenAPI
// document, and every answer is checked against the document's schemas.
const get = async (query: RouteQuery, headers: Record<string, string> = {}): Promise<Answer> => {
  const r = await apiClient(s.url).GET('/route', { params: { query, header: headers } });
  return { status: r.response.status, headers: r.response.headers, body: r.data ?? r.error };
};

describe('hand-computed routes', () => {
  it('best_single buy: 100.1 USDT buys exactly 1 BTC at alpha (100 x 1.001), impact 0', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: [] });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({
      from: 'USDT',
      to: 'BTC',
      exactSide: 'in',
      requestedAmount: 100.1,
      fullyFillable: true,
      unroutableReason: null,
      pathsConsidered: [],
    });
    expect(b.calculatedAt).toBe(T0);
    expect(b.calculatedAtIso).toBe(new Date(T0).toISOString());
    expect(b.amountIn).toBeCloseTo(100.1, 9);
    expect(b.amountOut).toBeCloseTo(1, 9);
    expect(b.effectiveRate).toBeCloseTo(1 / 100.1, 12);
    expect(b.impactBps).toBeCloseTo(0, 6);
    const hop = b.hops[0];
    expect(hop).toMatchObject({
      pair: 'BTC/USDT',
      side: 'buy',
      base: 'BTC',
      quote: 'USDT',
      feeCurrency: 'USDT',
      venueCount: 2,
      freshVenueCount: 2,
    });
    expect(hop.referencePrice).toBeCloseTo(100.1, 9);
    expect(hop.legs).toHaveLength(1);
    expect(hop.legs[0].exchangeId).toBe('alpha');
    expect(hop.legs[0].amount).toBeCloseTo(1, 9);
    expect(hop.legs[0].averagePrice).toBeCloseTo(100, 9);
    expect(hop.legs[0].feeCost).toBeCloseTo(0.1, 9);
    expect(hop.legs[0].effectivePrice).toBeCloseTo(100.1, 9);
    expect(hop.quotes.map((q: { exchangeId: string }) => q.exchangeId).sort()).toEqual(['alpha', 'beta']);
  });

  it('split_optimal buy: 210 USDT takes alpha 100 (1 BTC), then beta 101 x 1.002 with the rest', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountIn: 210, bridges: [], strategy: 'split_optimal' });
    const betaBtc = (210 - 100.1) / (101 * 1.002);
    expect(r.body.amountOut).toBeCloseTo(1 + betaBtc, 9);
    const legs = r.body.hops[0].legs;
    expect(legs.map((l: { exchangeId: string }) => l.exchangeId)).toEqual(['beta', 'alpha']);
    expect(legs[0].amount).toBeCloseTo(betaBtc, 9);
    expect(legs[1].amount).toBeCloseTo(1, 9);
    expect(r.body.hops[0].feeCost).toBeCloseTo(0.1 + betaBtc * 101 * 0.002, 9);
  });

  it('split_optimal sell: 1.5 BTC walks alpha bids 99 then 98 (fee 0.1%)', async () => {
    const r = await get({ from: 'BTC', to: 'USDT', amountIn: 1.5, bridges: [], strategy: 'split_optimal' });
    expect(r.body.hops[0].side).toBe('sell');
    expect(r.body.amountOut).toBeCloseTo((99 + 0.5 * 98) * 0.999, 9);
    expect(r.body.hops[0].legs).toEqual([expect.objectContaining({ exchangeId: 'alpha', amount: 1.5 })]);
  });

  it('a default holding applies to every venue: 50 USDT each, alpha still wins (50 / 100.1 BTC)', async () => {
    const r = await postJson(s.url, {
      from: 'USDT',
      to: 'BTC',
      amountIn: 100,
      bridges: [],
      balances: { USDT: 50 },
    });
    expect(r.status).toBe(200);
    expect(r.body.hops[0].legs[0]).toMatchObject({ exchangeId: 'alpha', balanceLimited: true });
    expect(r.body.amountOut).toBeCloseTo(50 / 100.1, 9);
  });
});

describe('statuses per unroutableReason (spec 2.6, 7)', () => {
  const unrouted = { hops: [], amountIn: 0, amountOut: 0, effectiveRate: null, fillRatio: 0 };

  it('no_market is 404 with a full RouteResult', async () => {
    const r = await get({ from: 'USDT', to: 'DOGE', amountIn: 1 });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      ...unrouted,
      unroutableReason: 'no_market',
      pathsConsidered: [],
      from: 'USDT',
      to: 'DOGE',
    });
    expect(r.body.requestId).toMatch(UUID);
  });

  it('exact_out_multi_hop_unsupported is 501 with a full RouteResult', async () => {
    const r = await get({ from: 'USDT', to: 'ETH', amountOut: 1 });
    expect(r.status).toBe(501);
    expect(r.body).toMatchObject({
      ...unrouted,
      unroutableReason: 'exact_out_multi_hop_unsupported',
      exactSide: 'out',
    });
  });

  it('no_venues_matched_filter is 200', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountIn: 1, bridges: [], exchanges: ['gamma'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ...unrouted, unroutableReason: 'no_venues_matched_filter' });
  });

  it('all_books_stale is 200 (SOL/USDT is 60 s old, cutoff 10 s)', async () => {
    const r = await get({ from: 'USDT', to: 'SOL', amountIn: 1, bridges: [] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ...unrouted, unroutableReason: 'all_books_stale' });
  });

  it('no_liquidity is 200 (XRP/USDT is fresh and empty)', async () => {
    const r = await get({ from: 'USDT', to: 'XRP', amountIn: 1, bridges: [] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ...unrouted, unroutableReason: 'no_liquidity' });
  });

  it('insufficient_depth is 200 (requireFullFill, 100 BTC against 5 BTC of asks)', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountOut: 100, bridges: [], requireFullFill: 'true' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ...unrouted,
      unroutableReason: 'insufficient_depth',
      requireFullFill: true,
    });
  });

  it('insufficient_balance is 200 (balanceMode=require)', async () => {
    const r = await get({
      from: 'USDT',
      to: 'BTC',
      amountIn: 100,
      bridges: [],
      balances: 'USDT:1',
      balanceMode: 'require',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ...unrouted, unroutableReason: 'insufficient_balance' });
  });

  it('a partial fill is 200 with fillRatio < 1 and a partial_fill warning', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountOut: 10, bridges: [], strategy: 'split_optimal' });
    expect(r.status).toBe(200);
    expect(r.body.fillRatio).toBeCloseTo(4 / 10, 9);
    expect(r.body.unfilledAmount).toBeCloseTo(6, 9);
    expect(r.body.warnings).toEqual([expect.stringMatching(/^partial_fill: /)]);
  });
});

describe('headers', () => {
  it('x-request-id: a valid caller id is echoed in header and body', async () => {
    const r = await get({ from: 'USDT', to: 'BTC', amountIn: 1 }, { 'x-request-id': 'order-42.retry_1' });
    expect(r.headers.get('x-request-id')).toBe('order-42.retry_1');
    expect(r.body.requestId).toBe('order-42.retry_1');
  });

  it('x-request-id: an invalid or over-long id is replaced by a minted UUID silently', async () => {
    for (const bad of ['has space', 'a/b', 'x'.repeat(201)]) {
      const r = await get({ from: 'USDT', to: 'BTC', amountIn: 1 }, { 'x-request-id': bad });
      expect(r.status).toBe(200);
      expect(r.body.requestId).toMatch(UUID);
      expect(r.headers.get('x-request-id')).toBe(r.body.requestId);
    }
    const max = await get({ from: 'USDT', to: 'BTC', amountIn: 1 }, { 'x-request-id': 'x'.repeat(200) });
    expect(max.body.requestId).toBe('x'.repeat(200));
  });

  it('404 and 501 route results echo the request id too', async () => {
    const r = await get({ from: 'USDT', to: 'DOGE', amountIn: 1 }, { 'x-request-id': 'nm-1' });
    expect([r.status, r.body.requestId, r.headers.get('x-request-id')]).toEqual([404, 'nm-1', 'nm-1']);
  });

  it('x-ratelimit-limit, -remaining and -reset are on every response, errors included', async () => {
    for (const path of ['/health', '/route?from=USDT', '/orderbook/alpha/NOPE%2FUSDT', '/nowhere']) {
      const r = await call(s.url, path);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      expect(r.headers.get('x-ratelimit-reset')).toBe('1');
    }
  });

  it('every body is JSON', async () => {
    const r = await call(s.url, '/route?from=USDT');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('books, symbols, venues, health', () => {
  it('GET /orderbook/{exchange}/{symbol} with the symbol URL-encoded', async () => {
    const r = await apiClient(s.url).GET('/orderbook/{exchange}/{symbol}', {
      params: { path: { exchange: 'alpha', symbol: 'BTC/USDT' } },
    });
    expect(r.response.url).toContain('/orderbook/alpha/BTC%2FUSDT');
    expect(r.response.status).toBe(200);
    expect(r.data).toEqual({
      exchangeId: 'alpha',
      symbol: 'BTC/USDT',
      bids: [
        { price: 99, amount: 1 },
        { price: 98, amount: 1 },
      ],
      asks: [
        { price: 100, amount: 1 },
        { price: 110, amount: 1 },
      ],
      exchangeTimestamp: null,
      receivedAt: T0,
      sequence: 1,
    });
  });

  it('GET /orderbook is 404 {error} naming exchange and symbol when nothing is cached', async () => {
    const r = await apiClient(s.url).GET('/orderbook/{exchange}/{base}/{quote}', {
      params: { path: { exchange: 'beta', base: 'ETH', quote: 'BTC' } },
    });
    expect(r.response.status).toBe(404);
    expect(r.error).toEqual({ error: 'no cached order book for beta:ETH/BTC' });
  });

  it('GET /symbols lists symbols with a fresh book, sorted (stale SOL/USDT is left out)', async () => {
    const r = await apiClient(s.url).GET('/symbols');
    expect(r.data).toEqual({ symbols: ['BTC/USDT', 'ETH/BTC', 'XRP/USDT'] });
  });

  it('GET /exchanges/status reports each venue', async () => {
    const r = await apiClient(s.url).GET('/exchanges/status');
    expect(r.data?.exchanges).toEqual([
      {
        exchangeId: 'alpha',
        connected: true,
        lastUpdateAt: T0,
        updateCount: 4,
        reconnectCount: 0,
        lastError: null,
      },
      {
        exchangeId: 'beta',
        connected: true,
        lastUpdateAt: T0,
        updateCount: 1,
        reconnectCount: 0,
        lastError: null,
      },
    ]);
  });

  it('GET /health exposes status and uptimeSec only', async () => {
    const r = await apiClient(s.url).GET('/health');
    expect(r.response.status).toBe(200);
    expect(Object.keys(r.data ?? {}).sort()).toEqual(['status', 'uptimeSec']);
    expect(r.data?.status).toBe('ok');
  });

  it('serves the OpenAPI document and a docs page', async () => {
    const doc = await call(s.url, '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/route',
        '/symbols',
        '/exchanges/status',
        '/health',
        '/orderbook/{exchange}/{symbol}',
        '/orderbook/{exchange}/{base}/{quote}',
      ]),
    );
    expect(doc.body.components.schemas.RouteResult.properties.unroutableReason.anyOf[0].enum).toContain(
      'insufficient_balance',
    );
    // Revalidation with the ETag is a 304 without a body (documented too).
    const again = await call(s.url, '/openapi.json', {
      headers: { 'if-none-match': doc.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const page = await call(s.url, '/docs');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('GET /route');
  });
});
