import { describe, expect, it } from 'vitest';
import { pathOf, queryOf } from './query';

describe('pathOf and queryOf', () => {
  it('split a request target at its first ? and decode nothing', () => {
    expect([pathOf('/route?from=USDT&to=BTC'), queryOf('/route?from=USDT&to=BTC')]).toEqual([
      '/route',
      'from=USDT&to=BTC',
    ]);
    // A '?' inside the query is part of it (a parser then refuses or reads it, never the split).
    expect([pathOf('/route?a=1?b'), queryOf('/route?a=1?b')]).toEqual(['/route', 'a=1?b']);
    expect([pathOf('/r%6Fute'), queryOf('/r%6Fute')]).toEqual(['/r%6Fute', '']);
    expect([pathOf('/route?'), queryOf('/route?')]).toEqual(['/route', '']);
  });
});
