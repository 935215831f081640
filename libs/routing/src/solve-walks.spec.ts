import { describe, expect, it } from 'vitest';
import { solve, type RouteRequest } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

// Hand-computed expectations for the four walks of clarifications 2 on one venue, fee 1%.
const BOOK: BookSpec[] = [
  {
    exchangeId: 'x',
    symbol: 'BTC/USDT',
    asks: [
      [100, 1],
      [110, 1],
    ],
    bids: [
      [99, 1],
      [90, 1],
    ],
    fee: 0.01,
  },
];
const run = (r: RouteRequest, specs: BookSpec[] = BOOK, config = CONFIG) =>
  solve({ request: r, books: cacheOf(specs), now: NOW, config });

describe('walks (clarifications 2)', () => {
  it('buy + amountIn is a notional walk whose budget includes the fee', () => {
    // Level 1 costs 100 * 1.01 = 101 per BTC: all of it (101). 49 left buys 49 / 111.1 BTC at 110.
    const r = run(req({ from: 'USDT', to: 'BTC', amount: 150 }));
    const second = 49 / 111.1;
    const hop = r.hops[0]!;
    expect(hop.side).toBe('buy');
    expect(r.amountIn).toBe(150);
    expect(r.amountOut).toBeCloseTo(1 + second, 12);
    expect(hop.legs[0]!.averagePrice).toBeCloseTo((100 + 110 * second) / (1 + second), 10);
    expect(hop.feeCost).toBeCloseTo((100 + 110 * second) * 0.01, 10);
    expect(hop.legs[0]!.effectivePrice).toBeCloseTo(hop.legs[0]!.averagePrice * 1.01, 10);
    expect(hop.feeCurrency).toBe('USDT');
    expect(r.effectiveRate).toBeCloseTo((1 + second) / 150, 14);
  });

  it('buy + amountOut is a quantity walk on asks: cost*(1+f) in', () => {
    const r = run(req({ from: 'USDT', to: 'BTC', amount: 1.5, exactSide: 'out' }));
    expect(r.amountOut).toBe(1.5);
    expect(r.amountIn).toBeCloseTo(155 * 1.01, 10);
    expect(r.hops[0]!.feeCost).toBeCloseTo(1.55, 12);
    expect(r.hops[0]!.legs[0]!.amount).toBe(1.5);
  });

  it('sell + amountIn is a quantity walk on bids: proceeds*(1-f) out', () => {
    const r = run(req({ from: 'BTC', to: 'USDT', amount: 1.5 }));
    expect(r.hops[0]!.side).toBe('sell');
    expect(r.amountIn).toBe(1.5);
    expect(r.amountOut).toBeCloseTo(144 * 0.99, 10);
    expect(r.hops[0]!.legs[0]!.effectivePrice).toBeCloseTo((144 / 1.5) * 0.99, 10);
  });

  it('sell + amountOut is a notional walk on bids until net proceeds reach the target', () => {
    // Level 1 nets 99*0.99 = 98.01; 44.55 more at 90*0.99 = 89.1 per BTC is 0.5 BTC.
    const r = run(req({ from: 'BTC', to: 'USDT', amount: 142.56, exactSide: 'out' }));
    expect(r.amountOut).toBe(142.56);
    expect(r.amountIn).toBeCloseTo(1.5, 12);
    expect(r.fullyFillable).toBe(true);
  });

  it('includeFees=false: f = 0 for amounts and ranking, feeCost 0, effectivePrice = averagePrice, rate still reported', () => {
    const r = run(req({ from: 'USDT', to: 'BTC', amount: 150, includeFees: false }));
    const leg = r.hops[0]!.legs[0]!;
    expect(r.amountOut).toBeCloseTo(1 + 50 / 110, 12);
    expect(leg.feeCost).toBe(0);
    expect(r.hops[0]!.feeCost).toBe(0);
    expect(leg.effectivePrice).toBe(leg.averagePrice);
    expect(leg.takerFeeRate).toBe(0.01);
    expect(r.includeFees).toBe(false);
  });

  it('a market with no published fee uses the configured default', () => {
    const r = run(
      req({ from: 'BTC', to: 'USDT', amount: 1 }),
      [{ exchangeId: 'x', symbol: 'BTC/USDT', bids: [[100, 1]], fee: null }],
      {
        ...CONFIG,
        defaultTakerFeeRate: 0.002,
      },
    );
    expect(r.hops[0]!.legs[0]!.takerFeeRate).toBe(0.002);
    expect(r.amountOut).toBeCloseTo(99.8, 12);
  });

  it('a partial fill prices only the filled part and says so', () => {
    const r = run(req({ from: 'BTC', to: 'USDT', amount: 4 }));
    expect(r.amountIn).toBe(2);
    expect(r.fillRatio).toBe(0.5);
    expect(r.unfilledAmount).toBe(2);
    expect(r.fullyFillable).toBe(false);
    expect(r.hops[0]!.fullyFillable).toBe(false);
    expect(r.effectiveRate).toBeCloseTo((189 * 0.99) / 2, 12);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^partial_fill: /);
    expect(r.unroutableReason).toBeNull();
  });
});
