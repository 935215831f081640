import { describe, expect, it } from 'vitest';
import { ParamsCache } from './params-cache';
import { parseRouteQuery, type ParamsParse } from '@app/request';

function counted(): { parse: (q: string) => () => ParamsParse; calls: () => number } {
  let n = 0;
  return {
    parse: (q) => () => {
      n++;
      return parseRouteQuery(q, 'rest');
    },
    calls: () => n,
  };
}

describe('ParamsCache', () => {
  it('parses a query string once and answers repeats with the same frozen result', () => {
    const cache = new ParamsCache();
    const p = counted();
    const q = 'from=usdt&to=BTC&amountIn=100&bridges=ETH,usdc&exchanges=b,a';
    const first = cache.get(q, p.parse(q));
    const again = cache.get(q, p.parse(q));
    expect(p.calls()).toBe(1);
    expect(again).toBe(first);
    expect(first).toEqual(parseRouteQuery(q, 'rest'));
    if (!first.ok) throw new Error(first.error);
    expect(first.params.bridges).toEqual(['ETH', 'USDC']);
    // Shared between requests, so nothing downstream may change it.
    expect(Object.isFrozen(first.params)).toBe(true);
    expect(() => (first.params.exchanges as string[]).push('c')).toThrow(TypeError);
  });

  it('remembers refusals too, and a different query string is parsed on its own', () => {
    const cache = new ParamsCache();
    const p = counted();
    const bad = 'from=USDT&to=BTC';
    expect(cache.get(bad, p.parse(bad))).toEqual({
      ok: false,
      error: 'exactly one of amountIn and amountOut must be supplied',
      status: 400,
    });
    expect(cache.get(bad, p.parse(bad)).ok).toBe(false);
    const good = 'from=USDT&to=BTC&amountIn=1';
    expect(cache.get(good, p.parse(good)).ok).toBe(true);
    expect(p.calls()).toBe(2);
  });

  it('holds at most `capacity` entries, dropping the oldest, and skips very long queries', () => {
    const cache = new ParamsCache(2);
    const p = counted();
    for (const amount of [1, 2, 3]) {
      const q = `from=USDT&to=BTC&amountIn=${amount}`;
      cache.get(q, p.parse(q));
    }
    expect(cache.size).toBe(2);
    const oldest = 'from=USDT&to=BTC&amountIn=1';
    cache.get(oldest, p.parse(oldest));
    expect(p.calls()).toBe(4);
    const long = `from=USDT&to=BTC&amountIn=1&exchanges=${'v,'.repeat(600)}w`;
    cache.get(long, p.parse(long));
    cache.get(long, p.parse(long));
    expect(p.calls()).toBe(6);
  });
});
