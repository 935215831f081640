import { describe, expect, it } from 'vitest';
import { parseBalances } from './balances';
import { parseRouteBody } from './body';
import { REQUEST_LIMITS } from './limits';
import { parseRouteQuery } from './query';

const q = (query: string, mode: 'rest' | 'stream' = 'rest') => parseRouteQuery(query, mode);

describe('parseRouteQuery', () => {
  it('normalises a full request with the documented defaults', () => {
    expect(q('from=%20eth%20&to=usdt&amountIn=2')).toEqual({
      ok: true,
      params: {
        from: 'ETH',
        to: 'USDT',
        exactSide: 'in',
        amount: 2,
        strategy: 'best_single',
        maxVenues: 3,
        bridges: ['USDT', 'USDC', 'BTC', 'ETH'],
        hopPenaltyBps: 5,
        exchanges: null,
        certifiedOnly: false,
        includeFees: true,
        includeQuotes: true,
        balances: null,
        balanceMode: 'cap',
        minLegNotional: 0,
        requireFullFill: false,
      },
      asOf: null,
    });
  });

  it('asOf: a plain integer of epoch ms on REST, refused on the stream', () => {
    const base = 'from=ETH&to=USDT&amountIn=1';
    expect(q(`${base}&asOf=1786300000000`)).toMatchObject({ ok: true, asOf: 1_786_300_000_000 });
    for (const bad of ['1.5', '-1', '1e12', '0x10', '', '%201', '99999999999999999'])
      expect(q(`${base}&asOf=${bad}`)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^asOf must be a plain integer of epoch milliseconds/) as unknown,
      });
    expect(q(`${base}&asOf=1&asOf=2`)).toEqual({
      ok: false,
      error: "parameter 'asOf' must not be repeated",
      status: 400,
    });
    expect(q(`${base}&asOf=1`, 'stream')).toEqual({
      ok: false,
      error: 'asOf is not available on the stream (a stream follows the live books)',
      status: 400,
    });
    expect(parseRouteBody({ from: 'ETH', to: 'USDT', amountIn: 1, asOf: 1_786_300_000_000 })).toMatchObject({
      ok: true,
      asOf: 1_786_300_000_000,
    });
  });

  it('the stream defaults includeQuotes to false and refuses balances', () => {
    const r = q('from=ETH&to=USDT&amountOut=1', 'stream');
    expect(r.ok && r.params.includeQuotes).toBe(false);
    expect(q('from=ETH&to=USDT&amountOut=1&includeQuotes=yes', 'stream')).toMatchObject({
      ok: true,
      params: { includeQuotes: true },
    });
    expect(q('from=ETH&to=USDT&amountOut=1&balances=', 'stream')).toEqual({
      ok: false,
      error: 'balances is not available on the stream',
      status: 400,
    });
  });

  it('bridges keep the caller order, exchanges are sorted, both deduplicated', () => {
    expect(q('from=A&to=B&amountIn=1&bridges=eth,%20btc,ETH&exchanges=kraken,binance,kraken')).toMatchObject({
      ok: true,
      params: { bridges: ['ETH', 'BTC'], exchanges: ['binance', 'kraken'] },
    });
  });

  it('names every cap it applies, quotes only a short prefix of a bad value', () => {
    const long = '1'.repeat(200) + 'x';
    const r = q(`from=USDT&to=BTC&amountIn=${long}`);
    expect(r).toMatchObject({ ok: false, status: 400 });
    if (r.ok) return;
    expect(r.error).toContain(`'${'1'.repeat(REQUEST_LIMITS.quotedChars)}…' (201 characters)`);
    expect(r.error.length).toBeLessThan(150);
    expect(q(`from=USDT&to=BTC&amountIn=${'1'.repeat(300)}`)).toMatchObject({
      ok: false,
      error: 'amountIn is longer than 256 characters',
    });
    expect(q(`from=USDT&to=BTC&amountIn=1&x=${'a'.repeat(5000)}`)).toMatchObject({
      ok: false,
      status: 414,
      error: 'the query string is longer than 4096 characters',
    });
    expect(
      q(`from=USDT&to=BTC&amountIn=1&bridges=${Array.from({ length: 17 }, (_, i) => `A${i}`).join(',')}`),
    ).toMatchObject({
      ok: false,
      error: 'bridges has more than 16 entries',
    });
    expect(
      q(`from=USDT&to=BTC&amountIn=1&exchanges=${Array.from({ length: 129 }, (_, i) => `v${i}`).join(',')}`),
    ).toMatchObject({
      ok: false,
      error: 'exchanges has more than 128 entries',
    });
    expect(q(Array.from({ length: 33 }, (_, i) => `p${i}=1`).join('&'))).toMatchObject({
      ok: false,
      error: 'the query string has more than 32 parameters',
    });
    expect(parseBalances(Array.from({ length: 129 }, (_, i) => `A${i}:1`).join(','))).toEqual({
      ok: false,
      error: 'balances has more than 128 entries',
    });
  });

  it('refuses malformed percent-escapes and prototype names, in names and values alike', () => {
    for (const bad of ['%zz=1', 'from=%E0%A4&to=BTC&amountIn=1', 'from=%'])
      expect(q(bad)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/malformed percent-escape/) as unknown,
      });
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString'])
      expect(q(`from=USDT&to=BTC&amountIn=1&${name}=1`)).toEqual({
        ok: false,
        error: `unknown parameter '${name}'`,
        status: 400,
      });
    expect(q('from=USDT&to=BTC&amountIn=1&exchanges=__proto__')).toMatchObject({ ok: false });
    expect(q('from=USDT&to=BTC&amountIn=1&balances=__proto__.BTC:1')).toMatchObject({
      ok: false,
      error: "balances entry '__proto__.BTC:1' has an invalid venue '__proto__'",
    });
  });

  it('an asset is checked before upper-casing (ß would become SS)', () => {
    expect(q('from=%C3%9F&to=BTC&amountIn=1')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^from must be an asset symbol/) as unknown,
    });
  });
});

describe('parseBalances', () => {
  it('splits default and per-venue holdings; empty means holding nothing', () => {
    expect(parseBalances('USDT:100, binance.btc:0.5')).toEqual({
      ok: true,
      balances: { default: { USDT: 100 }, perVenue: { binance: { BTC: 0.5 } } },
    });
    expect(parseBalances('')).toEqual({ ok: true, balances: { default: {}, perVenue: {} } });
    expect(parseBalances('USDT:1,USDT:2')).toEqual({
      ok: false,
      error: 'balances lists USDT more than once',
    });
  });
});

describe('parseRouteBody', () => {
  it('takes JSON types, the string forms following the query rules', () => {
    expect(
      parseRouteBody({
        from: 'A',
        to: 'B',
        amountIn: 1e-7,
        certified: true,
        bridges: ['X', 'Y'],
        balances: { 'v.A': 1, B: '2' },
      }),
    ).toMatchObject({
      ok: true,
      params: {
        amount: 1e-7,
        certifiedOnly: true,
        bridges: ['X', 'Y'],
        balances: { default: { B: 2 }, perVenue: { v: { A: 1 } } },
      },
    });
    expect(parseRouteBody({ from: 'A', to: 'B', amountIn: 1, bridges: ['a,b'] })).toMatchObject({
      ok: false,
      error: 'bridges entries must be non-empty strings without commas',
    });
    expect(parseRouteBody({ from: null, to: 'B', amountIn: 1 })).toMatchObject({
      ok: false,
      error: 'from must be a string',
    });
    expect(parseRouteBody([1])).toMatchObject({ ok: false, error: 'body must be a JSON object' });
  });
});
