import { describe, expect, it } from 'vitest';
import { solve, watchSymbols, type RouteRequest } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

const run = (r: RouteRequest, specs: BookSpec[]) =>
  solve({ request: r, books: cacheOf(specs), now: NOW, config: CONFIG });
const m = (symbol: string, bids: [number, number][], over: Partial<BookSpec> = {}): BookSpec => ({
  exchangeId: 'a',
  symbol,
  bids,
  asks: [[bids[0] === undefined ? 1 : bids[0][0] * 2, 1000]],
  fee: 0,
  ...over,
});

describe('paths and scoring (spec 4.1 rules 1-3, clarifications 5)', () => {
  const books = (bridgeBid: number) => [
    m('ETH/USDT', [[2000, 10]]),
    m('ETH/BTC', [[0.05, 10]]),
    m('BTC/USDT', [[bridgeBid, 10]]),
  ];

  it('a bridge wins when it beats the direct market by more than hopPenaltyBps', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), books(41_000));
    expect(r.hops.map((h) => h.pair)).toEqual(['ETH/BTC', 'BTC/USDT']);
    expect(r.amountOut).toBeCloseTo(2050, 9);
    expect(r.pathsConsidered).toEqual([
      { pairs: ['ETH/USDT'], bridge: null, amountOut: 2000, fullyFillable: true, score: 2000, chosen: false },
      {
        pairs: ['ETH/BTC', 'BTC/USDT'],
        bridge: 'BTC',
        amountOut: r.amountOut,
        fullyFillable: true,
        score: r.amountOut * (1 - 5 / 10_000),
        chosen: true,
      },
    ]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^multi_hop: /);
    expect(r.savingVsBestSingleBps).toBeNull();
    expect(r.hops[0]!.amountOut).toBeCloseTo(r.hops[1]!.amountIn, 12);
  });

  it('the highest amountOut can lose to the penalty (2000.5 * 0.9995 < 2000)', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), books(40_010));
    expect(r.hops.map((h) => h.pair)).toEqual(['ETH/USDT']);
    expect(r.pathsConsidered[1]!.amountOut).toBeCloseTo(2000.5, 9);
    expect(r.warnings).toEqual([]);
  });

  it('hopPenaltyBps 0 compares purely on output', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1, hopPenaltyBps: 0 }), books(40_010));
    expect(r.hops).toHaveLength(2);
  });

  it('bridges= disables bridging: one candidate, pathsConsidered empty', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1, bridges: [] }), books(41_000));
    expect(r.hops.map((h) => h.pair)).toEqual(['ETH/USDT']);
    expect(r.pathsConsidered).toEqual([]);
  });

  it('no direct market and no bridge: no_market with pathsConsidered []', () => {
    const r = run(req({ from: 'XRP', to: 'USDT', amount: 1 }), books(41_000));
    expect(r).toMatchObject({
      unroutableReason: 'no_market',
      hops: [],
      pathsConsidered: [],
      amountIn: 0,
      effectiveRate: null,
    });
  });

  it('exact-out reachable only over a bridge: exact_out_multi_hop_unsupported', () => {
    const r = run(req({ from: 'SOL', to: 'USDT', amount: 1, exactSide: 'out' }), [
      m('SOL/BTC', [[0.001, 100]]),
      m('BTC/USDT', [[40_000, 1]]),
    ]);
    expect(r.unroutableReason).toBe('exact_out_multi_hop_unsupported');
    expect(r.hops).toEqual([]);
  });

  it('exact-out uses the direct market only, even when a bridge is better', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1000, exactSide: 'out' }), books(41_000));
    expect(r.hops.map((h) => h.pair)).toEqual(['ETH/USDT']);
    expect(r.amountIn).toBeCloseTo(0.5, 12);
    expect(r.pathsConsidered).toEqual([]);
  });

  it('hop 1 is trimmed to what hop 2 absorbs (sequential solving)', () => {
    const r = run(req({ from: 'SOL', to: 'USDT', amount: 100 }), [
      m('SOL/BTC', [[0.001, 100]]),
      m('BTC/USDT', [[40_000, 0.05]]),
    ]);
    expect(r.amountIn).toBeCloseTo(50, 9);
    expect(r.amountOut).toBeCloseTo(2000, 9);
    expect(r.fillRatio).toBeCloseTo(0.5, 12);
    expect(r.hops[0]!.fullyFillable).toBe(true);
    expect(r.fullyFillable).toBe(false);
    expect(r.warnings.map((w) => w.split(':')[0])).toEqual(['multi_hop', 'partial_fill']);
  });

  it('mid-route failure: hops solved so far, unroutableHopIndex, zero totals', () => {
    const r = run(req({ from: 'SOL', to: 'USDT', amount: 100 }), [
      m('SOL/BTC', [[0.001, 100]]),
      m('BTC/USDT', [[40_000, 1]], { ageMs: 60_000 }),
    ]);
    expect(r.unroutableReason).toBe('all_books_stale');
    expect(r.unroutableHopIndex).toBe(1);
    expect(r.hops.map((h) => h.pair)).toEqual(['SOL/BTC']);
    expect(r).toMatchObject({ amountIn: 0, amountOut: 0, effectiveRate: null, fillRatio: 0 });
  });

  it('a bridge failing at its first hop: empty hops and a null hop index', () => {
    const r = run(req({ from: 'SOL', to: 'USDT', amount: 100 }), [
      m('SOL/BTC', [[0.001, 100]], { ageMs: 60_000 }),
      m('BTC/USDT', [[40_000, 1]]),
    ]);
    expect(r).toMatchObject({ unroutableReason: 'all_books_stale', unroutableHopIndex: null, hops: [] });
  });

  it("when every candidate fails the direct path's reason is reported", () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [
      m('ETH/USDT', [[2000, 10]], { ageMs: 60_000 }),
      m('ETH/BTC', [[0.05, 10]]),
      m('BTC/USDT', []),
    ]);
    expect(r.unroutableReason).toBe('all_books_stale');
    expect(r.unroutableHopIndex).toBeNull();
    expect(r.pathsConsidered.map((p) => p.chosen)).toEqual([false, false]);
  });

  it('requireFullFill: only a fully fillable path may win; none gives insufficient_depth', () => {
    const specs = [m('ETH/USDT', [[3000, 0.5]]), m('ETH/BTC', [[0.05, 10]]), m('BTC/USDT', [[28_000, 10]])];
    expect(run(req({ from: 'ETH', to: 'USDT', amount: 1 }), specs).hops).toHaveLength(1);
    const full = run(req({ from: 'ETH', to: 'USDT', amount: 1, requireFullFill: true }), specs);
    expect(full.hops).toHaveLength(2);
    expect(full.requireFullFill).toBe(true);
    const none = run(req({ from: 'ETH', to: 'USDT', amount: 1, requireFullFill: true, bridges: [] }), specs);
    expect(none.unroutableReason).toBe('insufficient_depth');
  });

  it('a market listed as B/A is used in the other direction', () => {
    const r = run(req({ from: 'USDT', to: 'ETH', amount: 1 }), [m('ETH/USDT', [[2000, 10]])]);
    expect(r.hops[0]).toMatchObject({ pair: 'ETH/USDT', side: 'buy', base: 'ETH', quote: 'USDT' });
    expect(r.amountOut).toBeCloseTo(1 / 4000, 15);
  });

  it('the watch set covers both orientations of every candidate market', () => {
    expect(watchSymbols(req({ from: 'ETH', to: 'USDT', amount: 1, bridges: ['BTC'] }))).toEqual([
      'BTC/ETH',
      'BTC/USDT',
      'ETH/BTC',
      'ETH/USDT',
      'USDT/BTC',
      'USDT/ETH',
    ]);
  });
});

describe('reference price and impact (spec 4.1 rule 4, clarifications 6)', () => {
  it('hop impact against the best top of book anywhere; route impact against the chained rate', () => {
    const specs: BookSpec[] = [
      {
        exchangeId: 'a',
        symbol: 'BTC/USDT',
        asks: [
          [100, 1],
          [110, 1],
        ],
        fee: 0,
      },
      { exchangeId: 'b', symbol: 'BTC/USDT', asks: [[105, 1]], fee: 0 },
    ];
    const r = run(
      req({ from: 'USDT', to: 'BTC', amount: 2, exactSide: 'out', strategy: 'split_optimal' }),
      specs,
    );
    const hop = r.hops[0]!;
    expect(hop.referencePrice).toBe(100);
    expect(hop.impactBps).toBeCloseTo(250, 9);
    expect(r.referenceRate).toBeCloseTo(0.01, 15);
    expect(r.impactBps).toBeCloseTo((1 - 200 / 205) * 10_000, 9);
  });
});
