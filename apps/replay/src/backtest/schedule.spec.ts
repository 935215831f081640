import { describe, expect, it } from 'vitest';
import { ROUTE_DEFAULTS } from '@app/request';
import { parseSchedule, routeRequest } from './schedule';

describe('backtest schedule', () => {
  it('gives unset constraints the API defaults, so a schedule quotes what GET /route would', () => {
    const schedule = parseSchedule({ intervalMs: 1000, requests: [{ from: 'btc', to: 'usdt', sizes: [1] }] });
    const request = routeRequest(schedule.requests[0]!, 1, 'split_optimal', 'bt-1');
    expect(request).toEqual({
      ...ROUTE_DEFAULTS,
      requestId: 'bt-1',
      from: 'BTC',
      to: 'USDT',
      amount: 1,
      strategy: 'split_optimal',
      includeQuotes: false,
    });
    expect(request.bridges).toEqual(['USDT', 'USDC', 'BTC', 'ETH']);
    expect(request.hopPenaltyBps).toBe(5);
  });

  it('names the bad field', () => {
    expect(() =>
      parseSchedule({ intervalMs: 1000, requests: [{ from: 'BTC', to: 'USDT', sizes: [-1] }] }),
    ).toThrow(/requests\[0\]\.sizes/);
  });
});
