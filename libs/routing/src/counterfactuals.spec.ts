import { describe, expect, it } from 'vitest';
import { constraintCosts, type RouteRequest, type RoutingConfig } from '@app/routing';
import { cacheOf, NOW, req, type BookSpec } from '../test/fixtures';

// The cost of each constraint on books small enough to follow by hand (docs/explain.md section 2).
// costBps = (1 - routeRate / rate) * 10000: positive when the alternative gives a better rate.

const PENALTY: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 };
const NO_PENALTY: RoutingConfig = { ...PENALTY, stalenessPenaltyBps: 0 };
const bid = (exchangeId: string, levels: [number, number][], over: Partial<BookSpec> = {}): BookSpec => ({
  exchangeId,
  symbol: 'ETH/USDT',
  bids: levels,
  asks: [[3000, 10]],
  fee: 0,
  ...over,
});
const costs = (request: RouteRequest, specs: BookSpec[], config = NO_PENALTY) =>
  constraintCosts({ request, books: cacheOf(specs), now: NOW, config });
const sell = (amount: number, over: Partial<RouteRequest> = {}) =>
  req({ from: 'ETH', to: 'USDT', amount, bridges: [], ...over });

describe('constraintCosts, computed by hand', () => {
  it('strategies and the staleness penalty: sell 1 ETH split_optimal', () => {
    // a bids 2000 x 0.6, b 1990 x 1, c 2000.5 x 0.5 but 9 s old: s = 0.0003, ranked at
    // 2000.5 * 0.9997 = 1999.89985, behind a. Route: a 0.6 (1200) + c 0.4 (800.2) = 2000.2.
    const c = costs(
      sell(1, { strategy: 'split_optimal' }),
      [bid('a', [[2000, 0.6]]), bid('b', [[1990, 1]]), bid('c', [[2000.5, 0.5]], { ageMs: 9000 })],
      PENALTY,
    );
    expect(c.valueAsset).toBe('USDT');
    expect(c.route.value).toBeCloseTo(2000.2, 9);
    // best_single: only b fills 1 ETH alone: 1990, the route is 51.26 bps better.
    // split_capped (maxVenues 3): the free split uses 2 venues, the same as the route.
    expect(c.strategies.map((s) => [s.name, s.current])).toEqual([
      ['best_single', false],
      ['split_optimal', true],
      ['split_capped', false],
    ]);
    expect(c.strategies[0]!.value).toBe(1990);
    expect(c.strategies[0]!.costBps).toBeCloseTo(-51.256281407, 8);
    expect(c.strategies[1]).toMatchObject({ costBps: 0, result: null, requestChange: {} });
    expect(c.strategies[2]!.value).toBeCloseTo(2000.2, 9);
    expect(c.strategies[2]!.costBps).toBeCloseTo(0, 12);
    // Without the penalty c ranks first: c 0.5 (1000.25) + a 0.5 (1000) = 2000.25,
    // (1 - 2000.2 / 2000.25) * 10000 = 0.24997 bps.
    expect(c.constraints.map((r) => r.name)).toEqual(['stalenessPenalty']);
    const [stale] = c.constraints;
    expect(stale!.configChange).toEqual({ stalenessPenaltyBps: 0 });
    expect(stale!.requestChange).toEqual({ includeQuotes: false });
    expect(stale!.value).toBeCloseTo(2000.25, 9);
    expect(stale!.costBps).toBeCloseTo(0.249968754, 8);
    expect(stale!.result.hops[0]!.legs.map((l) => [l.exchangeId, l.amount])).toEqual([
      ['a', 0.5],
      ['c', 0.5],
    ]);
  });

  it('maxVenues: a better price on a smaller fill shows as a negative cost', () => {
    // split_capped maxVenues 1, sell 1.5: a 2000 x 1, b 1990 x 1. Capped to a: 1 ETH for 2000
    // (fillRatio 2/3). Without the cap: 2000 + 995 = 2995 for 1.5, rate 1996.67:
    // (1 - 2000 / 1996.67) * 10000 = -16.69 bps, with fillRatio 1.
    const c = costs(sell(1.5, { strategy: 'split_capped', maxVenues: 1 }), [
      bid('a', [[2000, 1]]),
      bid('b', [[1990, 1]]),
    ]);
    expect(c.route).toMatchObject({ value: 2000, fullyFillable: false });
    expect(c.route.fillRatio).toBeCloseTo(2 / 3, 12);
    expect(c.constraints.map((r) => [r.name, r.value, r.fillRatio])).toEqual([['maxVenues', 2995, 1]]);
    expect(c.constraints[0]!.costBps).toBeCloseTo(-16.694490818, 8);
  });

  it('minLegNotional: the dropped venue would have paid 249.76 bps more', () => {
    // Split sell 2, a bids 2000 x 1.9, 1000 x 5; b 1999 x 0.1; floor 500 drops b's 199.9 leg:
    // a alone 3800 + 100 = 3900. Without the floor 3800 + 199.9 = 3999.9.
    const c = costs(sell(2, { strategy: 'split_optimal', minLegNotional: 500 }), [
      bid('a', [
        [2000, 1.9],
        [1000, 5],
      ]),
      bid('b', [[1999, 0.1]]),
    ]);
    expect(c.route.value).toBe(3900);
    expect(c.constraints.map((r) => [r.name, r.value])).toEqual([['minLegNotional', 3999.9]]);
    expect(c.constraints[0]!.costBps).toBeCloseTo(249.756243906, 8);
  });

  it('balances and requireFullFill: only the constraint that binds costs anything', () => {
    // Sell 1.5, a 2000 x 1, b 1990 x 1; ETH 0.5 everywhere, 1 on b: a 0.5 + b 1 = 2990 (full).
    // Without balances a 1 + b 0.5 = 2995: (1 - 2990 / 2995) * 10000 = 16.69 bps. The full fill
    // was met anyway: lifting requireFullFill changes nothing.
    const balances = { default: { ETH: 0.5 }, perVenue: { b: { ETH: 1 } } };
    const c = costs(sell(1.5, { strategy: 'split_optimal', balances, requireFullFill: true }), [
      bid('a', [[2000, 1]]),
      bid('b', [[1990, 1]]),
    ]);
    expect(c.route).toMatchObject({ value: 2990, fullyFillable: true });
    expect(c.constraints.map((r) => [r.name, r.value, r.costBps])).toEqual([
      ['requireFullFill', 2990, 0],
      ['balances', 2995, c.constraints[1]!.costBps],
    ]);
    expect(c.constraints[1]!.costBps).toBeCloseTo(16.694490818, 8);
  });

  it('requireFullFill that refuses the route costs everything (10000 bps)', () => {
    const c = costs(sell(2, { requireFullFill: true }), [bid('a', [[2000, 1]])]);
    expect(c.route).toMatchObject({ value: 0, unroutableReason: 'insufficient_depth', effectiveRate: null });
    expect(c.constraints.map((r) => [r.name, r.value, r.fillRatio, r.costBps])).toEqual([
      ['requireFullFill', 2000, 0.5, 10_000],
    ]);
  });

  it('certified and exchanges filters, each lifted on its own', () => {
    // Allowed: {a, b} and certified: a alone, 1990. Without certifiedOnly: b's 2000, 50 bps.
    // Without the allowlist: the certified a and c, c's 1995, 25.06 bps.
    const c = costs(sell(1, { certifiedOnly: true, exchanges: ['a', 'b'] }), [
      bid('a', [[1990, 1]], { certified: true }),
      bid('b', [[2000, 1]]),
      bid('c', [[1995, 1]], { certified: true }),
    ]);
    expect(c.route.value).toBe(1990);
    expect(c.constraints.map((r) => [r.name, r.value, r.requestChange])).toEqual([
      ['certifiedOnly', 2000, { certifiedOnly: false, includeQuotes: false }],
      ['exchanges', 1995, { exchanges: null, includeQuotes: false }],
    ]);
    expect(c.constraints[0]!.costBps).toBeCloseTo(50, 9);
    expect(c.constraints[1]!.costBps).toBeCloseTo(25.062656642, 8);
  });

  it('direct versus a bridge that gives more but lost on the hop penalty', () => {
    // Sell 2.5 ETH: direct 2.5 * 1993.206 = 4983.015; via BTC 0.125 BTC * 39,880 = 4985, scored
    // 4985 * 0.9995 = 4982.5075: the direct path wins. The bridge's rate is
    // (1 - 4983.015 / 4985) * 10000 = 3.98 bps better.
    const c = costs(req({ from: 'ETH', to: 'USDT', amount: 2.5 }), [
      bid('a', [[1993.206, 10]]),
      { exchangeId: 'c', symbol: 'ETH/BTC', bids: [[0.05, 10]], asks: [[0.06, 10]], fee: 0 },
      { exchangeId: 'c', symbol: 'BTC/USDT', bids: [[39_880, 1]], asks: [[40_000, 1]], fee: 0 },
    ]);
    expect(c.paths.map((p) => [p.bridge, p.chosen, p.amountIn])).toEqual([
      [null, true, 2.5],
      ['BTC', false, 2.5],
    ]);
    expect(c.paths[0]!.costBps).toBe(0);
    expect(c.paths[1]!.value).toBeCloseTo(4985, 9);
    expect(c.paths[1]!.score).toBeCloseTo(4982.5075, 9);
    expect(c.paths[1]!.costBps).toBeCloseTo(3.981945838, 8);
  });

  it('exact-out: the value is what the caller pays, in `from`', () => {
    // Buy exactly 1 ETH: a asks 2000; c asks 1999.5 but is 9 s old, ranked 1999.5 * 1.0003 =
    // 2000.09985: a wins, 2000 USDT. Without the penalty c: 1999.5 USDT, 2.5 bps better.
    const ask = (exchangeId: string, price: number, ageMs = 0): BookSpec => ({
      exchangeId,
      symbol: 'ETH/USDT',
      bids: [[1000, 1]],
      asks: [[price, 1]],
      fee: 0,
      ageMs,
    });
    const c = costs(
      req({ from: 'USDT', to: 'ETH', amount: 1, exactSide: 'out' }),
      [ask('a', 2000), ask('c', 1999.5, 9000)],
      PENALTY,
    );
    expect(c.valueAsset).toBe('USDT');
    expect(c.route.value).toBe(2000);
    expect(c.constraints.map((r) => [r.name, r.value])).toEqual([['stalenessPenalty', 1999.5]]);
    expect(c.constraints[0]!.costBps).toBeCloseTo(2.5, 9);
    expect(c.paths.map((p) => [p.bridge, p.score])).toEqual([[null, null]]);
  });
});
