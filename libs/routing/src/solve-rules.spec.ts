import { describe, expect, it } from 'vitest';
import { constraintCosts, solve, solveWithProof, type RouteRequest } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

// docs/semantics.md section 13, worked example and rule by rule (f = 0 unless said).

const run = (r: RouteRequest, specs: BookSpec[]) =>
  solve({ request: r, books: cacheOf(specs), now: NOW, config: CONFIG });
const buy = (amount: number, over: Partial<RouteRequest> = {}) =>
  req({
    from: 'USDT',
    to: 'BTC',
    amount,
    strategy: 'split_optimal',
    includeFees: false,
    bridges: [],
    ...over,
  });
const legs = (r: ReturnType<typeof run>, hop = 0) => r.hops[hop]!.legs.map((l) => [l.exchangeId, l.amount]);

const EXAMPLE: BookSpec[] = [
  {
    exchangeId: 'a',
    symbol: 'BTC/USDT',
    asks: [
      [50_000, 0.015],
      [50_020, 1],
    ],
    rules: { amountStep: 0.001, minAmount: 0.001, minCost: 10 },
  },
  {
    exchangeId: 'b',
    symbol: 'BTC/USDT',
    asks: [[50_010, 0.004]],
    rules: { amountStep: 0.00001, minCost: 5, maxAmount: 0.003 },
  },
  {
    exchangeId: 'c',
    symbol: 'BTC/USDT',
    asks: [[50_005, 0.0001]],
    rules: { amountStep: 0.0001, minCost: 10 },
  },
];

describe('executable legs (docs/semantics.md section 13)', () => {
  it('the worked example: b cut at its maximum, c dropped under its minimum cost, a rounded to whole steps', () => {
    const r = run(buy(1000), EXAMPLE);
    expect(legs(r)).toEqual([
      ['a', 0.016],
      ['b', 0.003],
    ]);
    expect(r.hops[0]!.legs[0]!.averagePrice).toBeCloseTo(50_001.25, 9);
    expect(r.amountOut).toBe(0.019);
    expect(r.amountIn).toBeCloseTo(950.05, 9);
    // 49.95 left is less than a's next step (50.02): rounding dust, not a partial fill.
    expect(r.unfilledAmount).toBeCloseTo(49.95, 9);
    expect(r.fillRatio).toBeCloseTo(0.95005, 12);
    expect(r.fullyFillable).toBe(true);
    expect(r.hops[0]!.fullyFillable).toBe(true);
    expect(r.warnings).toEqual([]);
    // Quotes show each venue's executable walk: c alone is under its minimum cost.
    expect(r.hops[0]!.quotes!.map((q) => [q.exchangeId, q.filledAmount, q.fullyFillable])).toEqual([
      ['a', 0.019, true],
      ['b', 0.003, false],
      ['c', 0, false],
    ]);
  });

  it('without the rules the same books give the old fractional legs', () => {
    const plain = EXAMPLE.map(({ rules: _, ...b }) => b);
    const r = run(buy(1000), plain);
    expect(r.amountIn).toBe(1000);
    expect(legs(r).map(([id]) => id)).toEqual(['a', 'b', 'c']);
    expect(r.hops[0]!.legs[0]!.amount).toBeCloseTo(0.0158988305, 10);
  });

  it('on a market without a step, a leg and a quote cut at maxAmount stay at or under it', () => {
    // 0.3 taken whole, then 0.9 - 0.3 of the next level: as doubles 0.3 + (0.9 - 0.3) is
    // 0.9000000000000001, an order the venue would refuse.
    const r = run(buy(200), [
      {
        exchangeId: 'x',
        symbol: 'BTC/USDT',
        asks: [
          [100, 0.3],
          [101, 5],
        ],
        rules: { maxAmount: 0.9 },
      },
      { exchangeId: 'y', symbol: 'BTC/USDT', asks: [[102, 10]] },
    ]);
    // And a level of exactly that rounded room (0.6000000000000001), which the walk would take whole.
    const tie = run(buy(200), [
      {
        exchangeId: 'x',
        symbol: 'BTC/USDT',
        asks: [
          [100, 0.3],
          [101, 0.9 - 0.3],
          [102, 5],
        ],
        rules: { maxAmount: 0.9 },
      },
      { exchangeId: 'y', symbol: 'BTC/USDT', asks: [[103, 10]] },
    ]);
    for (const answer of [r, tie]) {
      const x = answer.hops[0]!.legs.find((l) => l.exchangeId === 'x')!;
      const quote = answer.hops[0]!.quotes!.find((q) => q.exchangeId === 'x')!;
      for (const amount of [x.amount, quote.filledAmount]) {
        expect(amount).toBeLessThanOrEqual(0.9);
        expect(amount).toBeGreaterThan(0.9 - 1e-15);
      }
    }
  });

  it('requireFullFill accepts rounding dust and refuses a real shortfall', () => {
    expect(run(buy(1000, { requireFullFill: true }), EXAMPLE).unroutableReason).toBeNull();
    // 2,000 USDT needs more than a's and b's executable depth (1.015 + 0.003 BTC is plenty; make a shallow).
    const shallow = EXAMPLE.map((b) =>
      b.exchangeId === 'a' ? { ...b, asks: [[50_000, 0.015]] as [number, number][] } : b,
    );
    const r = run(buy(2000, { requireFullFill: true }), shallow);
    expect(r.unroutableReason).toBe('insufficient_depth');
    const partial = run(buy(2000), shallow);
    expect(partial.fullyFillable).toBe(false);
    expect(partial.warnings.some((w) => w.startsWith('partial_fill'))).toBe(true);
  });

  it('a venue with nothing executable is no_liquidity', () => {
    const r = run(buy(4), [EXAMPLE[2]!]);
    expect(r.unroutableReason).toBe('no_liquidity');
  });

  it('exact-out: sell steps, the pinned base amount is met exactly or within one step', () => {
    const specs: BookSpec[] = [
      { exchangeId: 'a', symbol: 'BTC/USDT', bids: [[100, 1]], rules: { amountStep: 0.1 } },
      { exchangeId: 'b', symbol: 'BTC/USDT', bids: [[99, 1]], rules: { amountStep: 0.25 } },
    ];
    // Sell exactly 1.3 BTC: a takes its whole 1 (10 steps), b 0.25; 0.05 left < b's step.
    const r = run(
      req({ from: 'BTC', to: 'USDT', amount: 1.3, bridges: [], strategy: 'split_optimal' }),
      specs,
    );
    expect(legs(r)).toEqual([
      ['a', 1],
      ['b', 0.25],
    ]);
    expect(r.amountIn).toBe(1.25);
    expect([r.fullyFillable, r.unfilledAmount]).toEqual([true, 1.3 - 1.25]);
    // Buy exactly 0.3 BTC over a step of 0.1: legs print exactly (never 0.30000000000000004).
    const asks: BookSpec[] = [
      {
        exchangeId: 'a',
        symbol: 'BTC/USDT',
        asks: [
          [100, 0.1],
          [101, 0.2],
        ],
        rules: { amountStep: 0.1 },
      },
    ];
    const out = run(buy(0.3, { exactSide: 'out' }), asks);
    expect([out.amountOut, out.fillRatio, out.fullyFillable]).toEqual([0.3, 1, true]);
  });

  it('the fill search lets a venue take its minimum when the best-priced venue would leave it short', () => {
    // Budget 100: a (best, 50 of depth, minCost 40) and b (minCost 55). The walk gives a 50 and b
    // 4 steps (44), under its minimum: b is dropped and a alone fills 50. The search takes the
    // best-ranked set whose minimums fit: a at 4 steps (40) and b at 5 (55).
    const specs: BookSpec[] = [
      { exchangeId: 'a', symbol: 'BTC/USDT', asks: [[10, 5]], rules: { amountStep: 1, minCost: 40 } },
      { exchangeId: 'b', symbol: 'BTC/USDT', asks: [[11, 100]], rules: { amountStep: 1, minCost: 55 } },
    ];
    const r = run(buy(100), specs);
    expect(r.fullyFillable).toBe(true);
    expect(legs(r)).toEqual([
      ['b', 5],
      ['a', 4],
    ]);
    // 5 left is less than a's next step (10): dust. (b alone would spend 99 on the same 9 BTC.)
    expect(r.amountIn).toBe(95);
  });

  it('best_single ranks what each venue can execute; split_capped counts executable legs', () => {
    const specs: BookSpec[] = [
      { exchangeId: 'a', symbol: 'BTC/USDT', asks: [[100, 10]], rules: { amountStep: 1, maxAmount: 2 } },
      { exchangeId: 'b', symbol: 'BTC/USDT', asks: [[101, 10]], rules: { amountStep: 1 } },
      { exchangeId: 'c', symbol: 'BTC/USDT', asks: [[102, 10]], rules: { amountStep: 1 } },
    ];
    // a's best price would win, but it can execute only 2 of the 5 BTC: b fills it all.
    const single = run(buy(5, { exactSide: 'out', strategy: 'best_single' }), specs);
    expect(legs(single)).toEqual([['b', 5]]);
    const capped = run(buy(5, { exactSide: 'out', strategy: 'split_capped', maxVenues: 2 }), specs);
    expect(legs(capped)).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
  });

  it('balances cap a leg on whole steps; a bridge executes on both hops', () => {
    const specs: BookSpec[] = [
      { exchangeId: 'a', symbol: 'ETH/BTC', bids: [[0.05, 10]], rules: { amountStep: 0.1, minAmount: 0.5 } },
      {
        exchangeId: 'a',
        symbol: 'BTC/USDT',
        bids: [[40_000, 10]],
        rules: { amountStep: 0.001, minCost: 10 },
      },
    ];
    const r = run(
      req({
        from: 'ETH',
        to: 'USDT',
        amount: 2.37,
        bridges: ['BTC'],
        balances: { default: { ETH: 2.35 }, perVenue: {} },
      }),
      specs,
    );
    // ETH capped at 2.35, in steps of 0.1: 2.3 ETH -> 0.115 BTC, sold in steps of 0.001.
    expect(legs(r, 0)).toEqual([['a', 2.3]]);
    expect(legs(r, 1)).toEqual([['a', 0.115]]);
    expect(r.hops[0]!.legs[0]!.balanceLimited).toBe(true);
    expect(r.amountIn).toBe(2.3);
  });
});

describe('the proof and the constraint costs name the venue rules (docs/explain.md)', () => {
  const input = { request: buy(1000), books: cacheOf(EXAMPLE), now: NOW, config: CONFIG };

  it('per leg the rule that shaped it and its levels; per venue its rules and why it was dropped', () => {
    const hop = solveWithProof(input).proof.candidates[0]!.hops[0]!;
    const [a, b] = hop.legs;
    expect([a!.exchangeId, a!.shapedBy, a!.steps, a!.amount]).toEqual(['a', 'step', 16, 0.016]);
    expect(a!.rules).toEqual({ amountStep: 0.001, minAmount: 0.001, minCost: 10, maxAmount: null });
    expect(a!.levels.map((v) => [v.level, v.base, v.stop])).toEqual([
      [0, 0.015, 'level_exhausted'],
      [1, 0.016 - 0.015, 'amount_met'],
    ]);
    expect(a!.levels.at(-1)!.runningCost).toBe(a!.cost);
    expect([b!.exchangeId, b!.shapedBy, b!.steps, b!.levels[0]!.stop]).toEqual([
      'b',
      'max',
      300,
      'max_reached',
    ]);
    expect(hop.venues.map((v) => [v.exchangeId, v.used, v.droppedBecause])).toEqual([
      ['a', true, null],
      ['b', true, null],
      ['c', false, 'min_cost'],
    ]);
    expect(hop.fillSearch).toBe(false);
  });

  it('a venueRules row routes as if no market carried rules', () => {
    const costs = constraintCosts(input);
    const row = costs.constraints.find((c) => c.name === 'venueRules')!;
    expect(row.configChange).toEqual({ ignoreVenueRules: true });
    expect(row.result).toEqual(
      solve({
        ...input,
        request: { ...input.request, includeQuotes: false },
        config: { ...CONFIG, ignoreVenueRules: true },
      }),
    );
    expect(row.result.amountIn).toBe(1000);
    expect(row.result.hops[0]!.legs.map((l) => l.exchangeId)).toEqual(['a', 'b', 'c']);
    // What the rules cost here is size, not rate: the route leaves 49.95 USDT of dust unspent and
    // its last whole steps are no dearer than the fractional rest would have been.
    expect(row.value).toBeGreaterThan(costs.route.value);
    expect(row.costBps).toBeLessThan(0);
    // No rules in play, no row.
    const plain = EXAMPLE.map(({ rules: _, ...spec }) => spec);
    expect(constraintCosts({ ...input, books: cacheOf(plain) }).constraints.map((c) => c.name)).not.toContain(
      'venueRules',
    );
  });
});
