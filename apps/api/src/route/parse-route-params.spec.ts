import { describe, expect, it } from 'vitest';
import { parseBalances } from './balances';
import { parseRouteParams } from './parse-route-params';
import { bodyToRaw } from './route-body';

describe('parseRouteParams', () => {
  it('normalises a full request with the documented defaults', () => {
    const r = parseRouteParams({ from: ' eth ', to: 'usdt', amountIn: '2' }, 'rest');
    expect(r).toEqual({
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
    const q = { from: 'ETH', to: 'USDT', amountIn: '1' };
    expect(parseRouteParams({ ...q, asOf: '1786300000000' }, 'rest')).toMatchObject({
      ok: true,
      asOf: 1_786_300_000_000,
    });
    for (const bad of ['1.5', '-1', '1e12', '0x10', '', ' 1', '99999999999999999'])
      expect(parseRouteParams({ ...q, asOf: bad }, 'rest')).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^asOf must be a plain integer of epoch milliseconds/) as unknown,
      });
    expect(parseRouteParams({ ...q, asOf: ['1', '2'] }, 'rest')).toEqual({
      ok: false,
      error: "parameter 'asOf' must not be repeated",
    });
    expect(parseRouteParams({ ...q, asOf: '1' }, 'stream')).toEqual({
      ok: false,
      error: 'asOf is not available on the stream (a stream follows the live books)',
    });
    expect(bodyToRaw({ ...q, asOf: 1_786_300_000_000 })).toEqual({
      ok: true,
      raw: { ...q, asOf: '1786300000000' },
    });
  });

  it('the stream defaults includeQuotes to false and refuses balances', () => {
    const r = parseRouteParams({ from: 'ETH', to: 'USDT', amountOut: '1' }, 'stream');
    expect(r.ok && r.params.includeQuotes).toBe(false);
    expect(
      parseRouteParams({ from: 'ETH', to: 'USDT', amountOut: '1', includeQuotes: 'yes' }, 'stream'),
    ).toMatchObject({ ok: true, params: { includeQuotes: true } });
    expect(parseRouteParams({ from: 'ETH', to: 'USDT', amountOut: '1', balances: '' }, 'stream')).toEqual({
      ok: false,
      error: 'balances is not available on the stream',
    });
  });

  it('bridges keep the caller order, exchanges are sorted, both deduplicated', () => {
    const r = parseRouteParams(
      { from: 'A', to: 'B', amountIn: '1', bridges: 'eth, btc,ETH', exchanges: 'kraken,binance,kraken' },
      'rest',
    );
    expect(r).toMatchObject({
      ok: true,
      params: { bridges: ['ETH', 'BTC'], exchanges: ['binance', 'kraken'] },
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

describe('bodyToRaw', () => {
  it('brings JSON types to the query form', () => {
    expect(
      bodyToRaw({
        from: 'A',
        amountIn: 1e-7,
        certified: true,
        bridges: ['X', 'Y'],
        balances: { 'v.A': 1, B: '2' },
      }),
    ).toEqual({
      ok: true,
      raw: { from: 'A', amountIn: '1e-7', certified: 'true', bridges: 'X,Y', balances: 'v.A:1,B:2' },
    });
    expect(bodyToRaw({ bridges: ['a,b'] })).toEqual({
      ok: false,
      error: 'bridges entries must be non-empty strings without commas',
    });
    expect(bodyToRaw({ from: null })).toEqual({ ok: false, error: 'from must be a string' });
  });
});
