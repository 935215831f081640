import { describe, expect, it } from 'vitest';
import { targetProblem } from './front-door';
import { RouteTable } from './route-table';

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

describe('targetProblem', () => {
  it('refuses a path over 1024 or a query over 4096 characters with 414, before any router reads them', () => {
    expect(targetProblem(`/${'a'.repeat(1023)}`)).toBeNull();
    expect(targetProblem(`/${'a'.repeat(1024)}`)).toEqual({
      status: 414,
      error: 'the path is longer than 1024 characters',
    });
    expect(targetProblem(`/route?${'a'.repeat(4096)}`)).toBeNull();
    expect(targetProblem(`/route?${'a'.repeat(4097)}`)?.status).toBe(414);
  });
});
