import { describe, expect, it } from 'vitest';
import { solve, type RouteRequest } from '@app/routing';
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
const legs = (r: ReturnType<typeof run>) => r.hops[0]!.legs.map((l) => [l.exchangeId, +l.amount.toFixed(12)]);
const sellEth = (amount: number, over: Partial<RouteRequest> = {}) =>
  req({ from: 'ETH', to: 'USDT', amount, bridges: [], ...over });

describe('best_single (clarifications 4)', () => {
  it('prefers a venue that fills the whole size over a better price that cannot', () => {
    const r = run(sellEth(2), [v('a', [[100, 1]]), v('b', [[90, 3]])]);
    expect(legs(r)).toEqual([['b', 2]]);
    expect(r.fullyFillable).toBe(true);
  });

  it('when none can fill, the venue filling the most', () => {
    const r = run(sellEth(3), [v('a', [[100, 1]]), v('b', [[95, 1.5]])]);
    expect(legs(r)).toEqual([['b', 1.5]]);
    expect(r.fillRatio).toBe(0.5);
  });

  it('among full fills, the best price for the whole size', () => {
    const r = run(sellEth(2), [
      v('a', [
        [100, 1],
        [80, 5],
      ]),
      v('b', [[95, 3]]),
    ]);
    // a: (100 + 80) / 2 = 90 < b: 95.
    expect(legs(r)).toEqual([['b', 2]]);
    expect(r.savingVsBestSingleBps).toBe(0);
  });
});

describe('split_optimal (clarifications 4)', () => {
  it('consumes the consolidated book greedily; legs aggregate per venue, largest first', () => {
    const r = run(sellEth(2.5, { strategy: 'split_optimal' }), [
      v('a', [
        [100, 1],
        [80, 5],
      ]),
      v('b', [
        [95, 1],
        [90, 1],
      ]),
    ]);
    expect(legs(r)).toEqual([
      ['b', 1.5],
      ['a', 1],
    ]);
    expect(r.amountOut).toBeCloseTo(100 + 95 + 45, 9);
    expect(r.hops[0]!.legs[0]!.averagePrice).toBeCloseTo(140 / 1.5, 12);
    // Best single: a fills 2.5 for 220, b only 2: a. (240/2.5) / (220/2.5) - 1.
    expect(r.savingVsBestSingleBps).toBeCloseTo((240 / 220 - 1) * 10_000, 9);
  });

  it('ties at one ranking price go to the smaller exchangeId first', () => {
    const r = run(sellEth(1, { strategy: 'split_optimal' }), [v('b', [[100, 1]]), v('a', [[100, 1]])]);
    expect(legs(r)).toEqual([['a', 1]]);
  });

  it('savingVsBestSingleBps is null when quotes are suppressed, and the route is unchanged', () => {
    const books = [
      v('a', [
        [100, 1],
        [80, 5],
      ]),
      v('b', [
        [95, 1],
        [90, 1],
      ]),
    ];
    const withQ = run(sellEth(2.5, { strategy: 'split_optimal' }), books);
    const noQ = run(sellEth(2.5, { strategy: 'split_optimal', includeQuotes: false }), books);
    expect(noQ.savingVsBestSingleBps).toBeNull();
    expect(noQ.hops[0]!.quotes).toBeUndefined();
    expect(noQ.hops[0]!.legs).toEqual(withQ.hops[0]!.legs);
  });
});

describe('split_capped (spec 4.1)', () => {
  it('keeps the maxVenues highest-volume venues and re-solves', () => {
    const r = run(sellEth(2.2, { strategy: 'split_capped', maxVenues: 2 }), [
      v('a', [
        [100, 1],
        [60, 5],
      ]),
      v('b', [[99, 1]]),
      v('c', [[98, 0.5]]),
    ]);
    expect(legs(r)).toEqual([
      ['a', 1.2],
      ['b', 1],
    ]);
  });

  it('falls back to the deepest venues when the highest-volume set cannot fill', () => {
    // Unconstrained: a 1, b 1, c 0.3. {a, b} fill only 2. Deepest: c (10.5), then a (tie with b, a < b).
    const r = run(sellEth(2.3, { strategy: 'split_capped', maxVenues: 2 }), [
      v('a', [[100, 1]]),
      v('b', [[99, 1]]),
      v('c', [
        [98, 0.5],
        [50, 10],
      ]),
    ]);
    expect(legs(r)).toEqual([
      ['c', 1.3],
      ['a', 1],
    ]);
    expect(r.fullyFillable).toBe(true);
  });

  it('with no more venues than maxVenues it equals split_optimal', () => {
    const books = [v('a', [[100, 1]]), v('b', [[99, 1]])];
    const capped = run(sellEth(1.5, { strategy: 'split_capped', maxVenues: 3 }), books);
    const opt = run(sellEth(1.5, { strategy: 'split_optimal' }), books);
    expect(capped.hops).toEqual(opt.hops);
  });
});

describe('minLegNotional (spec 4.1)', () => {
  it('suppresses sub-floor legs and reallocates the freed size', () => {
    const r = run(sellEth(2, { strategy: 'split_optimal', minLegNotional: 500 }), [
      v('a', [
        [2000, 1.9],
        [1000, 5],
      ]),
      v('b', [[1999, 0.1]]),
    ]);
    expect(legs(r)).toEqual([['a', 2]]);
    expect(r.amountOut).toBeCloseTo(3800 + 100, 9);
  });

  it('keeps the legs when every leg is below the floor', () => {
    const r = run(sellEth(2, { strategy: 'split_optimal', minLegNotional: 1e9 }), [
      v('a', [[2000, 1.9]]),
      v('b', [[1999, 0.1]]),
    ]);
    expect(legs(r)).toEqual([
      ['a', 1.9],
      ['b', 0.1],
    ]);
  });

  it('without balances the floor is absolute, even if the route becomes partial', () => {
    const r = run(sellEth(2, { strategy: 'split_optimal', minLegNotional: 500 }), [
      v('a', [[2000, 1.9]]),
      v('b', [[1999, 0.1]]),
    ]);
    expect(legs(r)).toEqual([['a', 1.9]]);
    expect(r.fillRatio).toBeCloseTo(0.95, 12);
  });

  it('with balances in play, sub-floor legs stay when the survivors cannot absorb the freed size', () => {
    const balances = { default: { ETH: 10 }, perVenue: {} };
    const r = run(sellEth(2, { strategy: 'split_optimal', minLegNotional: 500, balances }), [
      v('a', [[2000, 1.9]]),
      v('b', [[1999, 0.1]]),
    ]);
    expect(legs(r)).toEqual([
      ['a', 1.9],
      ['b', 0.1],
    ]);
    expect(r.fullyFillable).toBe(true);
  });
});

describe('best_single with equal capped fills', () => {
  it('two venues capped at one balance fill the same amount up to float dust: the better price wins', () => {
    const specs: BookSpec[] = [
      { exchangeId: 'alpha', symbol: 'BTC/USDT', asks: [[100, 10]], fee: 0.001 },
      { exchangeId: 'beta', symbol: 'BTC/USDT', asks: [[101, 10]], fee: 0.002 },
    ];
    const r = run(
      req({
        from: 'USDT',
        to: 'BTC',
        amount: 100,
        bridges: [],
        balances: { default: { USDT: 50 }, perVenue: {} },
      }),
      specs,
    );
    expect(r.hops[0]!.legs.map((l) => l.exchangeId)).toEqual(['alpha']);
    expect(r.amountOut).toBeCloseTo(50 / 100.1, 12);
  });
});
