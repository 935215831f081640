/* eslint-disable @typescript-eslint/no-unsafe-call -- JSON bodies are checked by the assertions */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, postJson } from './support/http';
import { startTestServer, type TestServer } from './support/server';

// Spec 4.1 parsing rules and clarifications 9, through a real socket.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const BASE = 'from=USDT&to=BTC&bridges=';
const get = (query: string) => call(s.url, `/route?${query}`);
const expect400 = async (query: string, message: RegExp) => {
  const r = await get(query);
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ error: expect.stringMatching(message) });
};

describe('GET /route parameters', () => {
  it('exactly one of amountIn and amountOut: both or neither is 400 with the rule as message', async () => {
    await expect400(BASE, /^exactly one of amountIn and amountOut must be supplied$/);
    await expect400(
      `${BASE}&amountIn=1&amountOut=1`,
      /^exactly one of amountIn and amountOut must be supplied$/,
    );
  });

  it('rule 1: includeFees and includeQuotes are off only for the exact value false', async () => {
    const on = await get(`${BASE}&amountIn=100.1&includeFees=FALSE&includeQuotes=0`);
    expect(on.body.includeFees).toBe(true);
    expect(on.body.hops[0].feeCost).toBeGreaterThan(0);
    expect(on.body.hops[0].quotes).toHaveLength(2);
    const off = await get(`${BASE}&amountIn=100.1&includeFees=false&includeQuotes=false`);
    expect(off.body.includeFees).toBe(false);
    expect(off.body.hops[0].feeCost).toBe(0);
    expect(off.body.hops[0].legs[0].effectivePrice).toBe(off.body.hops[0].legs[0].averagePrice);
    expect(off.body.hops[0].quotes).toBeUndefined();
  });

  it('rule 2: certified and requireFullFill are on only for the exact value true', async () => {
    const off = await get(`${BASE}&amountIn=100.1&certified=TRUE&requireFullFill=1`);
    expect([off.body.certifiedOnly, off.body.requireFullFill]).toEqual([false, false]);
    expect(off.body.hops[0].venueCount).toBe(2);
    const on = await get(`${BASE}&amountIn=100.1&certified=true&requireFullFill=true`);
    expect([on.body.certifiedOnly, on.body.requireFullFill]).toEqual([true, true]);
    // beta is not certified: only alpha is considered.
    expect(on.body.hops[0].venueCount).toBe(1);
  });

  it('rule 3: a repeated parameter is 400 saying it must not be repeated', async () => {
    await expect400(`${BASE}&amountIn=1&amountIn=2`, /^parameter 'amountIn' must not be repeated$/);
    await expect400(`${BASE}&amountIn=1&exchanges=alpha&exchanges=beta`, /'exchanges' must not be repeated/);
  });

  it('rule 4: non-positive and non-finite amounts are 400 naming the parameter', async () => {
    await expect400(`${BASE}&amountIn=0`, /^amountIn must be a number > 0, got '0'$/);
    await expect400(`${BASE}&amountOut=-1`, /^amountOut must be a number > 0/);
    await expect400(`${BASE}&amountIn=1e999`, /^amountIn must be finite/);
  });

  it('rule 4: out-of-range numerics are 400 naming the parameter and the range', async () => {
    await expect400(
      `${BASE}&amountIn=1&hopPenaltyBps=10001`,
      /^hopPenaltyBps must be a number from 0 to 10000/,
    );
    await expect400(`${BASE}&amountIn=1&maxVenues=0`, /^maxVenues must be an integer >= 1/);
    await expect400(`${BASE}&amountIn=1&maxVenues=1.5`, /^maxVenues must be an integer/);
    await expect400(`${BASE}&amountIn=1&minLegNotional=-1`, /^minLegNotional must be a number >= 0/);
  });

  it('rule 4: missing from or to, and from equal to to, are 400', async () => {
    await expect400('to=BTC&amountIn=1', /^from is required$/);
    await expect400('from=USDT&amountIn=1', /^to is required$/);
    await expect400('from=btc&to=%20BTC%20&amountIn=1', /^from and to must differ/);
  });

  it('numerics must be plain decimals: hex, Infinity, NaN and empty are 400; exponents are fine', async () => {
    for (const v of ['0x10', 'Infinity', 'NaN', '', '1,5', '1_000'])
      await expect400(`${BASE}&amountIn=${v}`, /^amountIn must be a number written as a plain decimal/);
    const r = await get(`${BASE}&amountIn=1.001e2`);
    expect(r.status).toBe(200);
    expect(r.body.requestedAmount).toBe(100.1);
  });

  it('an unknown parameter is 400 naming it (a typo never widens a route)', async () => {
    await expect400(`${BASE}&amountIn=1&exchange=alpha`, /^unknown parameter 'exchange'$/);
  });

  it('from and to are trimmed and upper-cased, then must match ^[A-Z0-9._-]{1,32}$', async () => {
    const r = await get('from=%20usdt%20&to=btc&amountIn=100.1&bridges=');
    expect(r.status).toBe(200);
    expect([r.body.from, r.body.to]).toEqual(['USDT', 'BTC']);
    await expect400('from=US$DT&to=BTC&amountIn=1', /^from must be an asset symbol/);
    await expect400(`from=${'A'.repeat(33)}&to=BTC&amountIn=1`, /^from must be an asset symbol/);
  });

  it('strategy outside the three names is 400', async () => {
    await expect400(
      `${BASE}&amountIn=1&strategy=best`,
      /^strategy must be one of best_single, split_optimal, split_capped$/,
    );
  });

  it('bridges: default USDT,USDC,BTC,ETH reaches ETH over BTC; explicitly empty means direct markets only', async () => {
    const bridged = await get('from=USDT&to=ETH&amountIn=10');
    expect(bridged.status).toBe(200);
    expect(bridged.body.hops.map((h: { pair: string }) => h.pair)).toEqual(['BTC/USDT', 'ETH/BTC']);
    const direct = await get('from=USDT&to=ETH&amountIn=10&bridges=');
    expect(direct.status).toBe(404);
    expect(direct.body.unroutableReason).toBe('no_market');
    await expect400(
      'from=USDT&to=ETH&amountIn=10&bridges=BTC,,ETH',
      /^bridges must be a comma-separated list/,
    );
  });

  it('exchanges: a list restricts and is echoed sorted; explicitly empty means no venues', async () => {
    const some = await get(`${BASE}&amountIn=100.1&exchanges=beta,%20alpha`);
    expect(some.body.exchangesFilter).toEqual(['alpha', 'beta']);
    const none = await get(`${BASE}&amountIn=100.1&exchanges=`);
    expect(none.status).toBe(200);
    expect(none.body.exchangesFilter).toEqual([]);
    expect(none.body.unroutableReason).toBe('no_venues_matched_filter');
    const unrestricted = await get(`${BASE}&amountIn=100.1`);
    expect(unrestricted.body.exchangesFilter).toBeNull();
  });

  it('balances in the query string: [venue.]ASSET:amount entries; a malformed entry is 400', async () => {
    const r = await get(`${BASE}&amountIn=100.1&balances=alpha.USDT:50.05,beta.usdt:0`);
    expect(r.status).toBe(200);
    expect(r.body.hops[0].legs[0]).toMatchObject({ exchangeId: 'alpha', balanceLimited: true });
    expect(r.body.amountOut).toBeCloseTo(0.5, 9);
    await expect400(
      `${BASE}&amountIn=1&balances=USDT`,
      /^balances entry 'USDT' must have the form \[venue\.\]ASSET:amount$/,
    );
    await expect400(`${BASE}&amountIn=1&balances=USDT:-1`, /must have a finite amount >= 0/);
    await expect400(`${BASE}&amountIn=1&balanceMode=all`, /^balanceMode must be cap or require$/);
  });

  it('defaults are echoed: best_single, hopPenaltyBps 5, server staleness settings', async () => {
    const r = await get(`${BASE}&amountIn=100.1`);
    expect(r.body).toMatchObject({
      strategy: 'best_single',
      hopPenaltyBps: 5,
      staleBookMs: 10_000,
      stalenessPenaltyBps: 1,
      certifiedOnly: false,
      requireFullFill: false,
      includeFees: true,
    });
  });
});

describe('POST /route body', () => {
  it('takes JSON numbers, booleans, arrays and a balances object', async () => {
    const r = await postJson(s.url, {
      from: 'usdt',
      to: 'btc',
      amountIn: 100.1,
      bridges: [],
      exchanges: ['alpha', 'beta'],
      includeQuotes: false,
      balances: { 'alpha.USDT': 50.05, USDT: 0 },
    });
    expect(r.status).toBe(200);
    expect(r.body.exchangesFilter).toEqual(['alpha', 'beta']);
    expect(r.body.hops[0].quotes).toBeUndefined();
    expect(r.body.hops[0].legs).toEqual([
      expect.objectContaining({ exchangeId: 'alpha', balanceLimited: true }),
    ]);
    expect(r.body.amountOut).toBeCloseTo(0.5, 9);
    expect(r.body.fillRatio).toBeCloseTo(0.5, 9);
  });

  it('accepts the string forms, which follow the query rules', async () => {
    const r = await postJson(s.url, {
      from: 'USDT',
      to: 'BTC',
      amountIn: '100.1',
      bridges: '',
      includeFees: 'no',
      balances: 'USDT:1000',
    });
    expect(r.status).toBe(200);
    expect(r.body.includeFees).toBe(true);
    expect(r.body.amountOut).toBeCloseTo(1, 9);
  });

  it('balanceMode=require refuses an unfundable size with insufficient_balance (200)', async () => {
    const r = await postJson(s.url, {
      from: 'USDT',
      to: 'BTC',
      amountIn: 100.1,
      bridges: [],
      balances: { USDT: 10 },
      balanceMode: 'require',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      unroutableReason: 'insufficient_balance',
      hops: [],
      amountIn: 0,
      amountOut: 0,
      effectiveRate: null,
      fillRatio: 0,
    });
  });

  it('rejects wrong JSON types, unknown names, non-object bodies and query parameters', async () => {
    expect((await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: true })).body).toEqual({
      error: 'amountIn must be a number',
    });
    expect((await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 1, certified: 1 })).body).toEqual({
      error: 'certified must be a boolean',
    });
    expect((await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 1, side: 'buy' })).body).toEqual({
      error: "unknown parameter 'side'",
    });
    expect((await postJson(s.url, [1, 2])).body).toEqual({ error: 'body must be a JSON object' });
    const q = await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 1 }, '/route?amountIn=2');
    expect(q.status).toBe(400);
    expect(q.body.error).toMatch(/^query parameters are not accepted on POST \/route/);
    const both = await postJson(s.url, { from: 'USDT', to: 'BTC', amountIn: 1, amountOut: 1 });
    expect(both.body).toEqual({ error: 'exactly one of amountIn and amountOut must be supplied' });
  });

  it('a body over 64 KiB is refused (413), malformed JSON is 400, another media type 415, all as {error}', async () => {
    const big = await postJson(s.url, {
      from: 'USDT',
      to: 'BTC',
      amountIn: 1,
      exchanges: Array.from({ length: 9000 }, (_, i) => `venue${i}`),
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: expect.any(String) });
    const bad = await call(s.url, '/route', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"from":',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.any(String) });
    const text = await call(s.url, '/route', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'from=USDT',
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ error: 'Content-Type must be application/json' });
  });
});
