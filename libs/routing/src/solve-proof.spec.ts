import { describe, expect, it } from 'vitest';
import { solve, solveWithProof, type RouteRequest, type RoutingConfig } from '@app/routing';
import { cacheOf, NOW, req, type BookSpec } from '../test/fixtures';

// The walk-the-book proof on books small enough to follow by hand (docs/explain.md).

const CONFIG: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 };
const BOOKS: BookSpec[] = [
  {
    exchangeId: 'a',
    symbol: 'ETH/USDT',
    bids: [
      [2000, 1],
      [1990, 5],
    ],
    asks: [[2010, 1]],
    fee: 0.001,
  },
  { exchangeId: 'b', symbol: 'ETH/USDT', bids: [[1995, 1]], asks: [[2011, 1]], fee: 0.002, ageMs: 4000 },
  { exchangeId: 'c', symbol: 'ETH/BTC', bids: [[0.05, 10]], asks: [[0.06, 10]], fee: 0 },
  { exchangeId: 'c', symbol: 'BTC/USDT', bids: [[39_880, 1]], asks: [[40_000, 1]], fee: 0 },
  { exchangeId: 'd', symbol: 'ETH/USDT', bids: [[1999, 1]], asks: [[2012, 1]], fee: 0.001, ageMs: 20_000 },
];
const input = () => ({
  request: req({ from: 'ETH', to: 'USDT', amount: 2.5, strategy: 'split_optimal' }),
  books: cacheOf(BOOKS),
  now: NOW,
  config: CONFIG,
});

describe('walk-the-book proof, computed by hand', () => {
  // Sell 2.5 ETH. b's book is 4 s old: s = 1 * sqrt(4) / 10000 = 0.0002, rankMul
  // (1 - 0.002)(1 - 0.0002) = 0.9978004. Ranking prices: a@2000 1998, b@1995 1990.6118,
  // a@1990 1988.01. The merged walk takes a@2000 x 1, b@1995 x 1, then 0.5 of a@1990.
  // d (20 s old) is stale and never walked.
  const { result, proof } = solveWithProof(input());
  const direct = proof.candidates[0]!;
  const hop = direct.hops[0]!;

  it('lists the levels each leg consumed, in walk order, summing to the leg', () => {
    expect(hop.legs.map((l) => l.exchangeId)).toEqual(['a', 'b']);
    const [a, b] = hop.legs;
    expect(a!.levels).toEqual([
      {
        step: 0,
        level: 0,
        price: 2000,
        available: 1,
        base: 1,
        cost: 2000,
        runningBase: 1,
        runningCost: 2000,
        stop: 'level_exhausted',
      },
      {
        step: 2,
        level: 1,
        price: 1990,
        available: 5,
        base: 0.5,
        cost: 995,
        runningBase: 1.5,
        runningCost: 2995,
        stop: 'amount_met',
      },
    ]);
    expect(b!.levels.map((l) => [l.step, l.price, l.base, l.stop])).toEqual([
      [1, 1995, 1, 'level_exhausted'],
    ]);
    // Leg a: c = 2995, average 1996.666..., fee 2.995, received 2995 * 0.999 = 2992.005.
    expect(a).toMatchObject({ amount: 1.5, cost: 2995, fee: 0.001, amountIn: 1.5, bookSequence: 1 });
    expect(a!.averagePrice).toBeCloseTo(1996.6666666667, 9);
    expect(a!.feeCost).toBeCloseTo(2.995, 12);
    expect(a!.amountOut).toBeCloseTo(2992.005, 9);
    expect(a!.rankingPrice).toBeCloseTo(1994.67, 9);
    // Leg b: 1995 * 0.998 = 1991.01 received, ranked at 1995 * 0.9978004.
    expect(b).toMatchObject({ amount: 1, cost: 1995, fee: 0.002, bookAgeMs: 4000, staleness: 0.0002 });
    expect(b!.rankMul).toBeCloseTo(0.9978004, 15);
    expect(b!.amountOut).toBeCloseTo(1991.01, 9);
    expect(b!.rankingPrice).toBeCloseTo(1990.611798, 9);
    // The same numbers as the result's legs, to the bit.
    expect(result.hops[0]!.legs.map((l) => [l.amount, l.averagePrice, l.feeCost, l.effectivePrice])).toEqual(
      hop.legs.map((l) => [l.amount, l.averagePrice, l.feeCost, l.effectivePrice]),
    );
  });

  it('shows every venue the hop could use, and why a book did not route', () => {
    expect(hop.venues.map((v) => [v.exchangeId, v.fresh, v.notFreshBecause, v.used, v.bookAgeMs])).toEqual([
      ['a', true, null, true, 0],
      ['b', true, null, true, 4000],
      ['d', false, 'stale', false, 20_000],
    ]);
    expect(hop.venues[2]!.bookReceivedAt).toBe(NOW - 20_000);
  });

  it('gives the score arithmetic of each candidate and why the winner won', () => {
    // Direct: 2992.005 + 1991.01 = 4983.015, one hop, score = amountOut.
    expect(direct.amountOut).toBeCloseTo(4983.015, 9);
    expect(direct.score!.steps).toEqual([direct.amountOut]);
    expect(direct.verdict).toBe('chosen');
    // Via BTC: 2.5 * 0.05 = 0.125 BTC, * 39,880 = 4985 USDT; score 4985 * 0.9995 = 4982.5075.
    const bridge = proof.candidates[1]!;
    expect(bridge.pairs).toEqual(['ETH/BTC', 'BTC/USDT']);
    expect(bridge.amountOut).toBeCloseTo(4985, 9);
    expect(bridge.score!.factor).toBe(0.9995);
    expect(bridge.score!.steps[0]).toBe(bridge.amountOut);
    expect(bridge.score!.steps[1]).toBeCloseTo(4982.5075, 9);
    expect(bridge.score!.score).toBe(bridge.score!.steps[1]);
    expect(bridge.verdict).toBe('lower_score');
    expect(bridge.hops.map((h) => [h.asked.amount, h.amountOut])).toEqual([
      [2.5, bridge.hops[1]!.asked.amount],
      [bridge.hops[1]!.asked.amount, bridge.amountOut],
    ]);
    // The bridge gives more USDT, but the hop penalty costs it (4983.015 / 4982.5075 - 1) bps.
    expect(proof.decision).toMatchObject({ winner: 0, rule: 'higher_score', runnerUp: 1, hopsFrom: 0 });
    expect(proof.decision.marginBps).toBeCloseTo(1.0185634, 6);
    expect(result.pathsConsidered.map((p) => p.score)).toEqual(proof.candidates.map((c) => c.score!.score));
  });

  it('leaves the result byte-identical to a plain solve, and is itself plain, repeatable JSON', () => {
    expect(JSON.stringify(result)).toBe(JSON.stringify(solve(input())));
    const again = JSON.stringify(solveWithProof(input()).proof);
    expect(again).toBe(JSON.stringify(proof));
    expect(JSON.parse(again)).toEqual(proof);
  });

  it('with hopPenaltyBps 0 the bridge wins on its higher output', () => {
    const r = solveWithProof({ ...input(), request: { ...input().request, hopPenaltyBps: 0 } });
    expect(r.proof.decision).toMatchObject({ winner: 1, rule: 'higher_score', runnerUp: 0, hopsFrom: 1 });
    expect(r.proof.candidates.map((c) => c.verdict)).toEqual(['lower_score', 'chosen']);
  });

  it('best_single: whole levels, then the part that met the amount or hit the funding cap', () => {
    // Buy ETH for 3000 USDT on a alone (asks 2000 x 1, 2010 x 5, f = 0) holding 2500 USDT:
    // level 0 whole (2000 USDT), then the 500 USDT left buy 500 / 2010 = 0.248756... ETH.
    const books = cacheOf([
      {
        exchangeId: 'a',
        symbol: 'ETH/USDT',
        bids: [[1990, 5]],
        asks: [
          [2000, 1],
          [2010, 5],
        ],
        fee: 0,
      },
    ]);
    const buy = (balances: RouteRequest['balances']) =>
      solveWithProof({
        request: req({ from: 'USDT', to: 'ETH', amount: 3000, balances, bridges: [] }),
        books,
        now: NOW,
        config: CONFIG,
      }).proof.candidates[0]!.hops[0]!.legs[0]!;
    const capped = buy({ default: { USDT: 2500 }, perVenue: {} });
    expect(capped.levels.map((l) => [l.level, l.base, l.cost, l.stop])).toEqual([
      [0, 1, 2000, 'level_exhausted'],
      [1, 500 / 2010, (500 / 2010) * 2010, 'cap_reached'],
    ]);
    expect(capped).toMatchObject({ cap: 2500, capLimited: true, amount: 1 + 500 / 2010 });
    // Unfunded: 1000 USDT left buy 1000 / 2010 = 0.497512... ETH and meet the amount.
    const free = buy(null);
    expect(free.levels.map((l) => [l.level, l.base, l.stop])).toEqual([
      [0, 1, 'level_exhausted'],
      [1, 1000 / 2010, 'amount_met'],
    ]);
    expect(free).toMatchObject({ cap: null, capLimited: false, amountIn: 3000 });
  });

  it('exact-out solves and scores the direct market only', () => {
    // Buy exactly 4983.015 USDT worth of ETH sold: the same walk as the exact-in case, backwards.
    const { result, proof: p } = solveWithProof({
      ...input(),
      request: req({
        from: 'ETH',
        to: 'USDT',
        amount: 4983.015,
        exactSide: 'out',
        strategy: 'split_optimal',
      }),
    });
    expect(result.amountIn).toBeCloseTo(2.5, 9);
    expect(p.decision).toMatchObject({
      winner: 0,
      rule: 'exact_out_direct_only',
      runnerUp: null,
      hopsFrom: 0,
    });
    expect(p.candidates.map((c) => [c.bridge, c.solved, c.score, c.verdict, c.ineligibleBecause])).toEqual([
      [null, true, null, 'chosen', null],
      ['BTC', false, null, 'ineligible', 'not_solved'],
    ]);
    expect(p.candidates[0]!.hops[0]!.asked).toEqual({ pinned: 'out', amount: 4983.015, asset: 'USDT' });
    expect(p.pinnedAsset).toBe('USDT');
  });

  it('a tie on score goes to fewer hops, then to the earlier candidate', () => {
    // Direct 1 ETH at 2000 (f = 0); via BTC 0.05 * 40,000 = 2000 with no penalty: same score.
    const books = cacheOf([
      { exchangeId: 'a', symbol: 'ETH/USDT', bids: [[2000, 5]], asks: [[2100, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'ETH/BTC', bids: [[0.05, 5]], asks: [[0.06, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'BTC/USDT', bids: [[40_000, 5]], asks: [[41_000, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'ETH/USDC', bids: [[2000, 5]], asks: [[2100, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'USDC/USDT', bids: [[1, 1e6]], asks: [[1.01, 1e6]], fee: 0 },
    ]);
    const request = req({ from: 'ETH', to: 'USDT', amount: 1, hopPenaltyBps: 0 });
    const { proof: p } = solveWithProof({ request, books, now: NOW, config: CONFIG });
    expect(p.candidates.map((c) => [c.bridge, c.score!.score])).toEqual([
      [null, 2000],
      ['USDC', 2000],
      ['BTC', 2000],
    ]);
    expect(p.decision).toMatchObject({ winner: 0, rule: 'fewer_hops', runnerUp: 1, marginBps: 0 });
    expect(p.candidates.map((c) => c.verdict)).toEqual([
      'chosen',
      'same_score_more_hops',
      'same_score_more_hops',
    ]);
    const bridgesOnly = solveWithProof({
      request: { ...request, bridges: ['USDC', 'BTC'] },
      books,
      now: NOW,
      config: CONFIG,
    });
    expect(bridgesOnly.proof.decision.rule).toBe('fewer_hops');
    const noDirect = cacheOf([
      { exchangeId: 'a', symbol: 'ETH/BTC', bids: [[0.05, 5]], asks: [[0.06, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'BTC/USDT', bids: [[40_000, 5]], asks: [[41_000, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'ETH/USDC', bids: [[2000, 5]], asks: [[2100, 5]], fee: 0 },
      { exchangeId: 'a', symbol: 'USDC/USDT', bids: [[1, 1e6]], asks: [[1.01, 1e6]], fee: 0 },
    ]);
    const later = solveWithProof({ request, books: noDirect, now: NOW, config: CONFIG });
    expect(later.proof.decision).toMatchObject({ winner: 0, rule: 'earlier_candidate', runnerUp: 1 });
    expect(later.proof.candidates.map((c) => [c.bridge, c.verdict])).toEqual([
      ['USDC', 'chosen'],
      ['BTC', 'same_score_later'],
    ]);
  });
});
