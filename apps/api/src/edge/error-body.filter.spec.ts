import { describe, expect, it } from 'vitest';
import { RouteTable } from './error-body.filter';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add('GET', '/route');
  table.add('POST', '/route');
  table.add('GET', '/orderbook/:exchange/:symbol');
  table.add('GET', '/health');

  it('lists the methods of every pattern a raw path matches, in Allow order (HEAD wherever GET)', () => {
    expect(table.allowed('/route')).toEqual(['GET', 'HEAD', 'POST']);
    expect(table.allowed('/orderbook/binance/BTC%2FUSDT')).toEqual(['GET', 'HEAD']);
    expect(table.allowed('/health')).toEqual(['GET', 'HEAD']);
    // The router decodes escapes before it compares static segments: PUT /r%6Fute is a 405 too.
    expect(table.allowed('/r%6Fute')).toEqual(['GET', 'HEAD', 'POST']);
    expect(table.allowed('/r%zzute')).toEqual([]);
  });

  it('matches nothing for unknown paths, empty parameters or extra segments (a 404, not a 405)', () => {
    expect(table.allowed('/nope')).toEqual([]);
    expect(table.allowed('/orderbook/binance/')).toEqual([]);
    expect(table.allowed('/orderbook/binance/BTC/USDT/x')).toEqual([]);
    expect(table.allowed('/route/')).toEqual([]);
  });
});
