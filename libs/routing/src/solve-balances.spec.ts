import { describe, expect, it } from 'vitest';
import { solve, solveWithProof, type Balances, type RouteRequest } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

const run = (r: RouteRequest, specs: BookSpec[]) =>
  solve({ request: r, books: cacheOf(specs), now: NOW, config: CONFIG });
const v = (exchangeId: string, bids: [number, number][]): BookSpec => ({
  exchangeId,
  symbol: 'ETH/USDT',
  bids,
  asks: [[5000, 100]],
  fee: 0,
});
const BOOKS = [v('a', [[2000, 1]]), v('b', [[1990, 1]])];
const bal = (
  def: Record<string, number>,
  perVenue: Record<string, Record<string, number>> = {},
): Balances => ({ default: def, perVenue });
const sell = (amount: number, balances: Balances | null, over: Partial<RouteRequest> = {}) =>
  req({ from: 'ETH', to: 'USDT', amount, bridges: [], strategy: 'split_optimal', balances, ...over });

describe('balances (spec 4.1, clarifications 8)', () => {
  it('caps each venue at what it holds; a venue entry overrides the default; legs are flagged', () => {
    const r = run(sell(1.5, bal({ ETH: 0.5 }, { b: { ETH: 1 } })), BOOKS);
    expect(r.hops[0]!.legs).toMatchObject([
      { exchangeId: 'b', amount: 1, balanceLimited: false },
      { exchangeId: 'a', amount: 0.5, balanceLimited: true },
    ]);
    expect(r.fullyFillable).toBe(true);
  });

  it('without balances legs carry no balanceLimited field', () => {
    const r = run(sell(1.5, null), BOOKS);
    expect(r.hops[0]!.legs.every((l) => !('balanceLimited' in l))).toBe(true);
  });

  it('cap mode routes the best fundable (smaller) size', () => {
    const r = run(sell(1, bal({ ETH: 0.2 })), BOOKS);
    expect(r.amountIn).toBeCloseTo(0.4, 12);
    expect(r.fillRatio).toBeCloseTo(0.4, 12);
    expect(r.unroutableReason).toBeNull();
    expect(r.hops[0]!.legs.every((l) => l.balanceLimited === true)).toBe(true);
  });

  it('require mode refuses with insufficient_balance', () => {
    const r = run(sell(1, bal({ ETH: 0.2 }), { balanceMode: 'require' }), BOOKS);
    expect(r).toMatchObject({ unroutableReason: 'insufficient_balance', hops: [], amountIn: 0 });
  });

  it('require mode with enough funds routes normally', () => {
    const r = run(sell(1, bal({ ETH: 5 }), { balanceMode: 'require' }), BOOKS);
    expect(r.unroutableReason).toBeNull();
    expect(r.fullyFillable).toBe(true);
  });

  it('holding nothing (explicitly empty balances) is insufficient_balance even in cap mode', () => {
    const r = run(sell(1, bal({})), BOOKS);
    expect(r.unroutableReason).toBe('insufficient_balance');
  });

  it('requireFullFill: a balance clamp refuses as insufficient_balance, a depth shortfall as insufficient_depth', () => {
    expect(run(sell(1, bal({ ETH: 0.2 }), { requireFullFill: true }), BOOKS).unroutableReason).toBe(
      'insufficient_balance',
    );
    expect(run(sell(3, bal({ ETH: 10 }), { requireFullFill: true }), BOOKS).unroutableReason).toBe(
      'insufficient_depth',
    );
  });

  it('a buy spends at most the quote held, fee included', () => {
    const specs: BookSpec[] = [{ exchangeId: 'a', symbol: 'ETH/USDT', asks: [[2000, 10]], fee: 0.001 }];
    const r = run(
      req({
        from: 'USDT',
        to: 'ETH',
        amount: 1,
        exactSide: 'out',
        bridges: [],
        balances: bal({ USDT: 1001 }),
      }),
      specs,
    );
    expect(r.amountIn).toBeCloseTo(1001, 9);
    expect(r.amountOut).toBeCloseTo(1001 / 2002, 12);
    expect(r.hops[0]!.legs[0]!.balanceLimited).toBe(true);
  });

  it('hop 2 of a bridge is funded only by what hop 1 delivered on that venue', () => {
    const specs: BookSpec[] = [
      { exchangeId: 'a', symbol: 'BTC/USDT', asks: [[40_000, 1]], fee: 0 },
      { exchangeId: 'a', symbol: 'SOL/BTC', asks: [[0.001, 1000]], fee: 0 },
      { exchangeId: 'b', symbol: 'SOL/BTC', asks: [[0.0009, 1000]], fee: 0 },
    ];
    const base = req({ from: 'USDT', to: 'SOL', amount: 4000, bridges: ['BTC'], strategy: 'split_optimal' });
    const free = run(base, specs);
    expect(free.hops[1]!.legs.map((l) => l.exchangeId)).toEqual(['b']);
    const funded = run({ ...base, balances: bal({ USDT: 4000 }) }, specs);
    expect(funded.hops[1]!.legs).toMatchObject([{ exchangeId: 'a', balanceLimited: false }]);
    expect(funded.amountOut).toBeCloseTo(100, 9);
  });
});

describe('balanceLimited on a stepped venue the walk reaches with dust left (venue rules, solver 1.2.3)', () => {
  // Sell 3.5585 ETH for USDT, no fees. Venue e bids 2,000 x 2.45575 then 1,999 x 3 in steps of
  // 0.01 and holds 2.4579 ETH; venue d bids 1,999.5 x 5 in steps of 0.01; venue f bids 1,998 x 5
  // with no step.
  const specs: BookSpec[] = [
    {
      ...v('e', [
        [2000, 2.45575],
        [1999, 3],
      ]),
      rules: { amountStep: 0.01, minAmount: null, minCost: null, maxAmount: null },
    },
    {
      ...v('d', [[1999.5, 5]]),
      rules: { amountStep: 0.01, minAmount: null, minCost: null, maxAmount: null },
    },
    v('f', [[1998, 5]]),
  ];
  const request = sell(3.5585, bal({ ETH: 2.4579 }, { d: { ETH: 10 }, f: { ETH: 10 } }));

  it('says true where the funds, not the dust, keep the venue from its next step, with or without a proof', () => {
    // e takes 2.45 at 2,000 (245 steps; 0.00575 of that level waits for a step). d takes 1.10 of
    // the 1.1085 left and stops: 0.0085 is left, under one step. e is reached next (1,999 ranks
    // above f's 1,998): the pinned dust would take it 0.00275 into its second level, its funds
    // (0.0079 left, 0.00575 of it owed to the first level's rest) only 0.00215, so the funds stop
    // it first. f takes the 0.0085.
    const r = run(request, specs);
    const legs = r.hops[0]!.legs;
    expect(legs.map((l) => [l.exchangeId, l.balanceLimited])).toEqual([
      ['e', true],
      ['d', false],
      ['f', false],
    ]);
    expect(legs.map((l) => l.amount).slice(0, 2)).toEqual([2.45, 1.1]);
    expect(legs[2]!.amount).toBeCloseTo(0.0085, 12);
    expect(r.fullyFillable).toBe(true);
    // The answer a proof is recorded for (GET /route/explain) is the same bytes.
    const proved = solveWithProof({ request, books: cacheOf(specs), now: NOW, config: CONFIG }).result;
    expect(JSON.stringify(proved)).toBe(JSON.stringify(r));
  });
});
