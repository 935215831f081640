import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import { solve, type RouteRequest, type RoutingConfig, type Side } from '@app/routing';
import { NOW, req } from '../test/fixtures';

// Property tests against an oracle written independently of the solver: flatten every level of
// every fresh venue, sort by fee-adjusted price (ties: exchangeId, level order), consume greedily.

interface VenueGen {
  id: string;
  fee: number;
  bids: [number, number][];
  asks: [number, number][];
}

const CONFIG: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 0, defaultTakerFeeRate: 0.001 };

const side = (dir: 1 | -1, start: number) =>
  fc
    .array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 400 })), {
      minLength: 1,
      maxLength: 15,
    })
    .map((ls) => {
      const out: [number, number][] = [];
      let p = start;
      for (const [step, amt] of ls) {
        p += (dir * step) / 100;
        if (p <= 0) break;
        out.push([+p.toFixed(2), amt / 100]);
      }
      return out;
    });

const venues = fc
  .uniqueArray(fc.constantFrom('alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'), {
    minLength: 1,
    maxLength: 6,
  })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({
          id: fc.constant(id),
          fee: fc.constantFrom(0, 0.0005, 0.001, 0.002),
          bids: side(-1, 100),
          asks: side(1, 100.5),
        }),
      ),
    ),
  );

const marketOf = (v: VenueGen): EventRecord => ({
  v: 1,
  type: 'market',
  exchangeId: v.id,
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  takerFeeRate: v.fee,
  receivedAt: NOW,
});

function records(vs: VenueGen[]): EventRecord[] {
  const out: EventRecord[] = [];
  for (const v of vs) {
    out.push(marketOf(v));
    out.push({
      v: 1,
      type: 'book',
      exchangeId: v.id,
      symbol: 'BTC/USDT',
      snapshot: true,
      bids: v.bids,
      asks: v.asks,
      sequence: 1,
      exchangeTimestamp: null,
      receivedAt: NOW,
    });
  }
  return out;
}

function cache(rs: EventRecord[]): BookCache {
  const c = new BookCache();
  for (const r of rs) c.apply(r);
  return c;
}

/** Oracle output of a split over all venues, exact-in. */
function oracleOut(vs: VenueGen[], sideOf: Side, amount: number): number {
  const levels = vs
    .flatMap((v) =>
      (sideOf === 'buy' ? v.asks : v.bids).map(([p, a], i) => ({ id: v.id, i, p, a, fee: v.fee })),
    )
    .sort((x, y) => {
      const rx = sideOf === 'buy' ? x.p * (1 + x.fee) : -x.p * (1 - x.fee);
      const ry = sideOf === 'buy' ? y.p * (1 + y.fee) : -y.p * (1 - y.fee);
      return rx - ry || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0) || x.i - y.i;
    });
  let left = amount;
  let out = 0;
  for (const l of levels) {
    if (left <= 0) break;
    if (sideOf === 'sell') {
      const b = Math.min(l.a, left);
      out += b * l.p * (1 - l.fee);
      left -= b;
    } else {
      const per = l.p * (1 + l.fee);
      const b = Math.min(l.a, left / per);
      out += b;
      left -= b * per;
    }
  }
  return out;
}

const request = (sideOf: Side, amount: number, over: Partial<RouteRequest> = {}): RouteRequest =>
  req({
    from: sideOf === 'sell' ? 'BTC' : 'USDT',
    to: sideOf === 'sell' ? 'USDT' : 'BTC',
    amount,
    bridges: [],
    strategy: 'split_optimal',
    includeQuotes: true,
    ...over,
  });

const close = (a: number, b: number, rel = 1e-9) =>
  Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
const amounts = (s: Side) =>
  s === 'sell'
    ? fc.double({ min: 0.01, max: 20, noNaN: true })
    : fc.double({ min: 1, max: 2000, noNaN: true });
const cases = fc.constantFrom<Side>('buy', 'sell').chain((s) => fc.tuple(fc.constant(s), venues, amounts(s)));

describe('solver properties (fast-check, oracle written independently)', () => {
  it('split_optimal matches the oracle and is never worse than any single venue or capped split', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 1, max: 4 }), ([s, vs, amount], maxVenues) => {
        const books = cache(records(vs));
        const opt = solve({ request: request(s, amount), books, now: NOW, config: CONFIG });
        expect(close(opt.amountOut, oracleOut(vs, s, amount))).toBe(true);
        for (const q of opt.hops[0]!.quotes!) {
          const single = solve({
            request: request(s, amount, { exchanges: [q.exchangeId] }),
            books,
            now: NOW,
            config: CONFIG,
          });
          expect(opt.amountOut).toBeGreaterThanOrEqual(single.amountOut * (1 - 1e-12));
        }
        const capped = solve({
          request: request(s, amount, { strategy: 'split_capped', maxVenues }),
          books,
          now: NOW,
          config: CONFIG,
        });
        expect(opt.amountOut).toBeGreaterThanOrEqual(capped.amountOut * (1 - 1e-12));
        expect(capped.hops[0]!.legs.length).toBeLessThanOrEqual(maxVenues);
        const bs = solve({
          request: request(s, amount, { strategy: 'best_single' }),
          books,
          now: NOW,
          config: CONFIG,
        });
        expect(opt.amountOut).toBeGreaterThanOrEqual(bs.amountOut * (1 - 1e-12));
      }),
      { numRuns: 200 },
    );
  });

  it('legs sum to the hop amount', () => {
    fc.assert(
      fc.property(
        cases,
        fc.constantFrom<RouteRequest['strategy']>('best_single', 'split_optimal', 'split_capped'),
        ([s, vs, amount], strategy) => {
          const r = solve({
            request: request(s, amount, { strategy, maxVenues: 2 }),
            books: cache(records(vs)),
            now: NOW,
            config: CONFIG,
          });
          const hop = r.hops[0]!;
          const sum = hop.legs.reduce((t, l) => t + l.amount, 0);
          expect(close(sum, s === 'sell' ? hop.amountIn : hop.amountOut, 1e-12)).toBe(true);
          expect(
            close(
              hop.feeCost,
              hop.legs.reduce((t, l) => t + l.feeCost, 0),
              1e-12,
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("exact-out of an exact-in's amountOut gives back its amountIn", () => {
    fc.assert(
      fc.property(cases, ([s, vs, amount]) => {
        const books = cache(records(vs));
        const fwd = solve({ request: request(s, amount), books, now: NOW, config: CONFIG });
        fc.pre(fwd.fullyFillable);
        const back = solve({
          request: request(s, fwd.amountOut, { exactSide: 'out' }),
          books,
          now: NOW,
          config: CONFIG,
        });
        expect(close(back.amountIn, fwd.amountIn)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('more input never gives a better rate', () => {
    fc.assert(
      fc.property(cases, fc.double({ min: 1.01, max: 5, noNaN: true }), ([s, vs, amount], k) => {
        const books = cache(records(vs));
        const small = solve({ request: request(s, amount), books, now: NOW, config: CONFIG });
        const big = solve({ request: request(s, amount * k), books, now: NOW, config: CONFIG });
        expect(big.effectiveRate!).toBeLessThanOrEqual(small.effectiveRate! * (1 + 1e-12));
      }),
      { numRuns: 200 },
    );
  });

  it('result bytes do not depend on the order venues or levels were inserted', () => {
    fc.assert(
      fc.property(cases, fc.integer(), ([s, vs, amount], seed) => {
        const ordered = records(vs);
        // Same books built differently: venues in another order, and each book as a one-level
        // snapshot followed by a delta carrying the remaining levels in reversed order.
        const shuffled: EventRecord[] = [];
        const rot = Math.abs(seed) % vs.length;
        for (const v of [...vs.slice(rot), ...vs.slice(0, rot)].reverse()) {
          shuffled.push(marketOf(v));
          shuffled.push({
            v: 1,
            type: 'book',
            exchangeId: v.id,
            symbol: 'BTC/USDT',
            snapshot: true,
            bids: v.bids.slice(0, 1),
            asks: v.asks.slice(0, 1),
            sequence: 1,
            exchangeTimestamp: null,
            receivedAt: NOW,
          });
          shuffled.push({
            v: 1,
            type: 'book',
            exchangeId: v.id,
            symbol: 'BTC/USDT',
            snapshot: false,
            bids: v.bids.slice(1).reverse(),
            asks: v.asks.slice(1).reverse(),
            sequence: 2,
            exchangeTimestamp: null,
            receivedAt: NOW,
          });
        }
        const r = request(s, amount, { strategy: 'split_optimal' });
        const a = JSON.stringify(solve({ request: r, books: cache(ordered), now: NOW, config: CONFIG }));
        const b = JSON.stringify(solve({ request: r, books: cache(shuffled), now: NOW, config: CONFIG }));
        expect(b).toBe(a);
      }),
      { numRuns: 150 },
    );
  });
});
