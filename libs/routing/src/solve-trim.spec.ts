import { describe, expect, it } from 'vitest';
import { solve, solveWithProof } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

// Which hop of a bridged route ran out (docs/semantics.md section 8): sell 100 SOL for USDT over
// BTC on venue a, taker fee 0.001 on both markets, no direct SOL/USDT market.
const sell = (symbol: string, bids: [number, number][]): BookSpec => ({
  exchangeId: 'a',
  symbol,
  bids,
  asks: [[bids[0]![0] * 2, 1000]],
  fee: 0.001,
});
const run = (specs: BookSpec[]) =>
  solve({
    request: req({ from: 'SOL', to: 'USDT', amount: 100 }),
    books: cacheOf(specs),
    now: NOW,
    config: CONFIG,
  });

describe('fullyFillable per hop on a trimmed bridge (issue 11 decision)', () => {
  it('hop 2 too shallow: hop 1 true, hop 2 false, route false', () => {
    // First pass. Hop 1 sells 100 SOL: 60 @ 0.001 + 40 @ 0.0008 = 0.092 BTC raw, 0.091908 net.
    // Hop 2 bids 40,000 x 0.05 only: it absorbs 0.05 of the 0.091908 BTC. Trim: hop 1 exact-out
    // for 0.05 BTC at 0.001 * 0.999 = 0.000999 BTC net per SOL is 50.050050... SOL (within level
    // 1); hop 2 sells 0.05 BTC: 2,000 raw, 1,998 net. Hop 1 could sell all 100 SOL: true.
    const r = run([
      sell('SOL/BTC', [
        [0.001, 60],
        [0.0008, 100],
      ]),
      sell('BTC/USDT', [[40_000, 0.05]]),
    ]);
    expect(r.amountIn).toBeCloseTo(0.05 / 0.000999, 9);
    expect(r.amountIn).toBeCloseTo(50.05005005005, 9);
    expect(r.amountOut).toBeCloseTo(1998, 9);
    expect(r.hops[0]!.amountOut).toBe(0.05);
    expect(r.hops[1]!.amountIn).toBe(0.05);
    expect(r.fillRatio).toBeCloseTo(0.5005005005005, 12);
    expect(r.hops.map((h) => h.fullyFillable)).toEqual([true, false]);
    expect(r.fullyFillable).toBe(false);
    expect(r.unfilledAmount).toBeCloseTo(100 - 50.05005005005, 9);
  });

  it('the proof shows the trim: what hop 1 first delivered, what hop 2 absorbed, what each hop was asked', () => {
    const specs = [
      sell('SOL/BTC', [
        [0.001, 60],
        [0.0008, 100],
      ]),
      sell('BTC/USDT', [[40_000, 0.05]]),
    ];
    const request = req({ from: 'SOL', to: 'USDT', amount: 100 });
    const { result, proof } = solveWithProof({ request, books: cacheOf(specs), now: NOW, config: CONFIG });
    const path = proof.candidates[0]!;
    expect(path.trim!.hop1Filled).toBe(true);
    expect(path.trim!.delivered).toBeCloseTo(0.091908, 12);
    expect(path.trim!).toMatchObject({ absorbed: 0.05, rounds: 1 });
    expect(path.hops.map((h) => [h.asked.pinned, h.asked.amount, h.asked.asset, h.fullyFillable])).toEqual([
      ['out', 0.05, 'BTC', true],
      ['in', 0.05, 'BTC', false],
    ]);
    // Hop 1 re-solved: 50.05005... SOL taken from the first level alone, the amount met there.
    expect(path.hops[0]!.legs[0]!.levels.map((l) => [l.level, l.stop])).toEqual([[0, 'amount_met']]);
    expect(path.hops[0]!.legs[0]!.levels[0]!.base).toBe(result.hops[0]!.amountIn);
  });

  it('both hops short: hop 1 false (it could not sell 100 SOL either), hop 2 false', () => {
    // Hop 1 has 60 SOL of depth: 0.06 BTC raw, 0.05994 net; hop 2 absorbs 0.05 of it, the trim
    // re-solves hop 1 for 0.05 BTC exactly as above.
    const r = run([sell('SOL/BTC', [[0.001, 60]]), sell('BTC/USDT', [[40_000, 0.05]])]);
    expect(r.amountIn).toBeCloseTo(50.05005005005, 9);
    expect(r.amountOut).toBeCloseTo(1998, 9);
    expect(r.hops.map((h) => h.fullyFillable)).toEqual([false, false]);
    expect(r.fullyFillable).toBe(false);
  });

  it('only hop 1 short (no trim): hop 1 false, hop 2 true', () => {
    // 60 SOL -> 0.05994 BTC net; hop 2 (40,000 x 1) absorbs it: 2,397.6 raw, 2,395.2024 net.
    const r = run([sell('SOL/BTC', [[0.001, 60]]), sell('BTC/USDT', [[40_000, 1]])]);
    expect(r.amountIn).toBe(60);
    expect(r.amountOut).toBeCloseTo(2395.2024, 9);
    expect(r.fillRatio).toBe(0.6);
    expect(r.hops.map((h) => h.fullyFillable)).toEqual([false, true]);
    expect(r.fullyFillable).toBe(false);
  });

  it('both hops deep enough: every flag true', () => {
    // 100 SOL -> 0.0999 BTC net -> 3,996 raw, 3,992.004 net.
    const r = run([sell('SOL/BTC', [[0.001, 100]]), sell('BTC/USDT', [[40_000, 1]])]);
    expect(r.amountOut).toBeCloseTo(3992.004, 9);
    expect(r.hops.map((h) => h.fullyFillable)).toEqual([true, true]);
    expect(r.fullyFillable).toBe(true);
  });
});

describe('a trim never spends more than the request (venue rules, solver 1.2.2)', () => {
  // Buy ETH with 0.625 BTC, then sell it for USDT; no BTC/USDT market. ETH/BTC: venue s asks
  // 0.0625 in whole ETH, 10 at least; venue f asks 0.0626 with no step. ETH/USDT: venue b bids
  // 2,000 x 9.99.
  const specs: BookSpec[] = [
    {
      exchangeId: 's',
      symbol: 'ETH/BTC',
      asks: [[0.0625, 20]],
      bids: [[0.025, 1000]],
      fee: 0,
      rules: { amountStep: 1, minAmount: 10, minCost: null, maxAmount: null },
    },
    { exchangeId: 'f', symbol: 'ETH/BTC', asks: [[0.0626, 20]], bids: [[0.025, 1000]], fee: 0 },
    { exchangeId: 'b', symbol: 'ETH/USDT', bids: [[2000, 9.99]], asks: [[4000, 1000]], fee: 0 },
  ];

  it('best_single: the re-solve for what hop 2 absorbed would cost more elsewhere, so the first pass stands', () => {
    // First pass: s turns 0.625 BTC into 10 whole ETH (f would give 9.98); b absorbs 9.99 of
    // them. Re-solved exact-out for 9.99 ETH, s could deliver only 9, under its minimum, and f
    // would charge 9.99 x 0.0626 = 0.625374 BTC, more than the 0.625 asked: that trim is not taken.
    const r = solve({
      request: req({ from: 'BTC', to: 'USDT', amount: 0.625, strategy: 'best_single' }),
      books: cacheOf(specs),
      now: NOW,
      config: CONFIG,
    });
    expect(r.amountIn).toBeLessThanOrEqual(0.625);
    expect(r.hops.map((h) => h.legs.map((l) => [l.exchangeId, l.amount]))).toEqual([
      [['s', 10]],
      [['b', 9.99]],
    ]);
    expect(r.amountIn).toBe(0.625);
    expect(r.amountOut).toBeCloseTo(19_980, 9);
    expect(r.hops.map((h) => h.fullyFillable)).toEqual([true, false]);
    expect(r.fullyFillable).toBe(false);
  });
});
