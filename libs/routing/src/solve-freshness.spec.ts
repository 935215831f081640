import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_TOLERANCE_MS, solve, solveWithProof, type RouteRequest } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';

const run = (r: RouteRequest, specs: BookSpec[], config = CONFIG) =>
  solve({ request: r, books: cacheOf(specs), now: NOW, config });
const sell = (exchangeId: string, over: Partial<BookSpec> = {}): BookSpec => ({
  exchangeId,
  symbol: 'ETH/USDT',
  bids: [[2000, 1]],
  asks: [[3500, 1]],
  fee: 0,
  ...over,
});

describe('freshness and staleness (clarifications 3)', () => {
  it('a book exactly staleBookMs old routes; one ms older does not', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [
      sell('a', { ageMs: 10_000 }),
      sell('b', { ageMs: 10_001, bids: [[3000, 1]] }),
    ]);
    expect(r.hops[0]!.legs.map((l) => l.exchangeId)).toEqual(['a']);
    expect(r.hops[0]!.venueCount).toBe(2);
    expect(r.hops[0]!.freshVenueCount).toBe(1);
    const q = r.hops[0]!.quotes!;
    expect(q.map((x) => [x.exchangeId, x.bookAgeMs])).toEqual([
      ['a', 10_000],
      ['b', 10_001],
    ]);
    // The stale venue is still quoted so the caller sees what it missed.
    expect(q[1]!.averagePrice).toBe(3000);
  });

  it('every book stale: all_books_stale, empty route (spec 2.6a)', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('a', { ageMs: 20_000 })]);
    expect(r).toMatchObject({
      unroutableReason: 'all_books_stale',
      hops: [],
      amountIn: 0,
      amountOut: 0,
      effectiveRate: null,
      fillRatio: 0,
      unroutableHopIndex: null,
      fullyFillable: false,
    });
    expect(r.unfilledAmount).toBe(1);
  });

  it('a book stamped more than CLOCK_SKEW_TOLERANCE_MS ahead of the clock is not fresh; within it, it routes as age 0 (issue 22)', () => {
    // The ingestor's clock runs ahead of the solver's: its age cannot be known, so it never routes,
    // however far ahead (an hour ahead used to count as fresh for that hour).
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [
      sell('a', { ageMs: -CLOCK_SKEW_TOLERANCE_MS, bids: [[2000, 1]] }),
      sell('b', { ageMs: -CLOCK_SKEW_TOLERANCE_MS - 1, bids: [[3000, 1]] }),
      sell('c', { ageMs: -3_600_000, bids: [[3100, 1]] }),
    ]);
    expect(r.hops[0]!.legs.map((l) => l.exchangeId)).toEqual(['a']);
    expect(r.hops[0]!.freshVenueCount).toBe(1);
    expect(r.hops[0]!.quotes!.map((q) => [q.exchangeId, q.bookAgeMs])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
    ]);
    const all = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('c', { ageMs: -3_600_000 })]);
    expect(all.unroutableReason).toBe('all_books_stale');
    const proof = solveWithProof({
      request: req({ from: 'ETH', to: 'USDT', amount: 1 }),
      books: cacheOf([sell('a'), sell('c', { ageMs: -3_600_000 })]),
      now: NOW,
      config: CONFIG,
    }).proof;
    const venues = proof.candidates[0]!.hops[0]!.venues;
    expect(venues.map((v) => [v.exchangeId, v.notFreshBecause])).toEqual([
      ['a', null],
      ['c', 'ahead_of_clock'],
    ]);
  });

  it('an out-of-sync book (sequence gap) is stale whatever its age', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('a', { outOfSync: true })]);
    expect(r.unroutableReason).toBe('all_books_stale');
  });

  it('a crossed book is never routed', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [
      sell('a', { bids: [[3600, 1]] }),
      sell('b', { bids: [[1999, 1]] }),
    ]);
    expect(r.hops[0]!.legs.map((l) => l.exchangeId)).toEqual(['b']);
    expect(r.hops[0]!.freshVenueCount).toBe(1);
  });

  it('a listed venue whose book never arrived counts as a stale venue with bookAgeMs null', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('a', { noBook: true }), sell('b')]);
    expect(r.hops[0]!.venueCount).toBe(2);
    expect(r.hops[0]!.freshVenueCount).toBe(1);
    expect(r.hops[0]!.quotes![0]).toMatchObject({
      exchangeId: 'a',
      filledAmount: 0,
      averagePrice: null,
      effectivePriceWithFee: null,
      fullyFillable: false,
      bookAgeMs: null,
    });
  });

  it('the staleness markdown ranks but never changes amounts', () => {
    // Same price on both; a is 4 s old: s = 1 bps * sqrt(4) = 2 bps, so b wins despite a < b.
    const config = { ...CONFIG, stalenessPenaltyBps: 1 };
    const r = run(
      req({ from: 'ETH', to: 'USDT', amount: 1 }),
      [sell('a', { ageMs: 4000, fee: 0.001 }), sell('b', { fee: 0.001 })],
      config,
    );
    const hop = r.hops[0]!;
    expect(hop.legs[0]!.exchangeId).toBe('b');
    expect(r.amountOut).toBeCloseTo(2000 * 0.999, 12);
    expect(hop.legs[0]!.effectivePrice).toBeCloseTo(2000 * 0.999, 12);
    const qa = hop.quotes!.find((q) => q.exchangeId === 'a')!;
    expect(qa.effectivePriceWithFee).toBeCloseTo(2000 * 0.999 * (1 - 0.0002), 10);
    expect(r.stalenessPenaltyBps).toBe(1);
    expect(r.staleBookMs).toBe(10_000);
    // referencePrice is the best adjusted top of book: b's (s = 0).
    expect(hop.referencePrice).toBeCloseTo(2000 * 0.999, 12);
  });

  it('ties between equal ranking prices go to the smaller exchangeId', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('b'), sell('a')]);
    expect(r.hops[0]!.legs[0]!.exchangeId).toBe('a');
  });
});

describe('filters (spec 4.1 exchanges, certified)', () => {
  const books = [
    sell('a', { certified: true }),
    sell('b', { bids: [[2100, 1]] }),
    sell('c', { certified: true, bids: [[2050, 1]] }),
  ];

  it('exchanges allowlist restricts venues and is echoed sorted', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1, exchanges: ['c', 'a'] }), books);
    expect(r.hops[0]!.legs[0]!.exchangeId).toBe('c');
    expect(r.hops[0]!.venueCount).toBe(2);
    expect(r.exchangesFilter).toEqual(['a', 'c']);
  });

  it('certified intersects with exchanges', () => {
    const r = run(
      req({ from: 'ETH', to: 'USDT', amount: 1, exchanges: ['a', 'b'], certifiedOnly: true }),
      books,
    );
    expect(r.hops[0]!.legs[0]!.exchangeId).toBe('a');
    expect(r.hops[0]!.venueCount).toBe(1);
    expect(r.certifiedOnly).toBe(true);
  });

  it('an explicitly empty allowlist yields no_venues_matched_filter', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1, exchanges: [], bridges: [] }), books);
    expect(r.unroutableReason).toBe('no_venues_matched_filter');
    expect(r.hops).toEqual([]);
    expect(r.exchangesFilter).toEqual([]);
  });

  it('no fresh depth on the walked side: no_liquidity', () => {
    const r = run(req({ from: 'ETH', to: 'USDT', amount: 1 }), [sell('a', { bids: [] })]);
    expect(r.unroutableReason).toBe('no_liquidity');
  });
});
