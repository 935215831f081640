import type { BookCache, MarketRules } from '@app/books';
import type { Balances, RouteRequest, Strategy } from '@app/routing';
import { seeded } from '@app/synth';
import { cacheOf, req, type BookSpec } from './fixtures';

// Seeded random markets and requests exercising every request field the solver reads: a golden
// over fixed seeds pins the result bytes, property tests draw seeds from fast-check.

/** Deterministic PRNG (mulberry32, the project's one): the same seed gives the same stream. */
const prng = seeded;

const VENUES = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
const ASSETS = ['BTC', 'ETH', 'SOL', 'USDT', 'USDC'];
/** Market, mid price, base size of a level. */
const MARKETS: readonly [string, number, number][] = [
  ['BTC/USDT', 40_000, 0.2],
  ['ETH/USDT', 2_000, 3],
  ['ETH/BTC', 0.05, 3],
  ['SOL/BTC', 0.001, 100],
  ['SOL/USDT', 40, 100],
  ['USDC/USDT', 1, 20_000],
  ['BTC/USDC', 40_010, 0.2],
];
/** A typical order size per asset, so that requests meet the depth now and then. */
const SIZE: Readonly<Record<string, number>> = { BTC: 0.5, ETH: 8, SOL: 300, USDT: 20_000, USDC: 20_000 };

/** A generated snapshot and request. */
export interface Scenario {
  readonly specs: BookSpec[];
  readonly request: RouteRequest;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function levels(rand: () => number, mid: number, size: number, dir: 1 | -1): [number, number][] {
  const out: [number, number][] = [];
  let p = mid * (1 + (dir * (1 + Math.floor(rand() * 20))) / 10_000);
  const n = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < n; i++) {
    out.push([+p.toPrecision(8), +(size * (0.1 + 2 * rand())).toPrecision(6)]);
    p *= 1 + (dir * (1 + Math.floor(rand() * 30))) / 10_000;
  }
  return out;
}

function books(rand: () => number): BookSpec[] {
  const specs: BookSpec[] = [];
  const certified = new Map(VENUES.map((v) => [v, rand() < 0.6]));
  for (const [symbol, mid, size] of MARKETS) {
    if (rand() < 0.15) continue;
    for (const exchangeId of VENUES) {
      if (rand() < 0.35) continue;
      const skew = 1 + (rand() - 0.5) / 500;
      specs.push({
        exchangeId,
        symbol,
        bids: levels(rand, mid * skew, size, -1),
        asks: levels(rand, mid * skew, size, 1),
        fee: pick(rand, [0, 0.0005, 0.001, 0.002, null]),
        ageMs: pick(rand, [0, 0, 0, 400, 3_000, 9_000, 12_000]),
        certified: certified.get(exchangeId)!,
        outOfSync: rand() < 0.05,
        noBook: rand() < 0.04,
      });
    }
  }
  return specs;
}

function balances(rand: () => number): Balances {
  const of = (): Record<string, number> => {
    const b: Record<string, number> = {};
    for (const a of ASSETS) if (rand() < 0.6) b[a] = SIZE[a]! * rand() * 1.5;
    return b;
  };
  const perVenue: Record<string, Record<string, number>> = {};
  for (const v of VENUES) if (rand() < 0.3) perVenue[v] = of();
  return { default: of(), perVenue };
}

function request(rand: () => number, seed: number): RouteRequest {
  const from = pick(rand, ASSETS);
  const to = pick(
    rand,
    ASSETS.filter((a) => a !== from),
  );
  const exactSide = rand() < 0.25 ? 'out' : 'in';
  const pinnedAsset = exactSide === 'in' ? from : to;
  const amount = SIZE[pinnedAsset]! * (0.01 + 3 * rand() * rand());
  const some = <T>(p: number, v: () => T, otherwise: T): T => (rand() < p ? v() : otherwise);
  return req({
    requestId: `scenario-${seed}`,
    from,
    to,
    amount: +amount.toPrecision(6),
    exactSide,
    strategy: pick<Strategy>(rand, ['best_single', 'split_optimal', 'split_capped']),
    maxVenues: 1 + Math.floor(rand() * 4),
    bridges: some(0.8, () => ['USDT', 'USDC', 'BTC', 'ETH'], []),
    hopPenaltyBps: pick(rand, [0, 5, 5, 40]),
    exchanges: some(0.2, () => VENUES.filter(() => rand() < 0.6), null),
    certifiedOnly: rand() < 0.15,
    includeFees: rand() < 0.9,
    includeQuotes: rand() < 0.7,
    balances: some(0.25, () => balances(rand), null),
    balanceMode: rand() < 0.5 ? 'cap' : 'require',
    minLegNotional: some(0.2, () => pick(rand, [10, 500, 5_000]), 0),
    requireFullFill: rand() < 0.15,
  });
}

/** The scenario of `seed`. */
export function scenario(seed: number): Scenario {
  const rand = prng(seed);
  const specs = books(rand);
  return { specs, request: request(rand, seed) };
}

/** The scenario of `seed` with its books folded into a cache. */
export function scenarioInput(seed: number, now: number): { request: RouteRequest; books: BookCache } {
  const s = scenario(seed);
  return { request: s.request, books: cacheOf(s.specs, now) };
}

/**
 * A power of ten near `x` (steps and minimums on real venues are mostly such), read from its
 * decimal text: `10 ** -5` is 0.000009999999999999999 on Node 20 and 0.00001 on Node 26, and the
 * proofs echo a market's rules as given.
 */
const tenth = (x: number): number => Number(`1e${Math.round(Math.log10(x))}`);

/** Order rules for one market of scenario books: steps, minimums and maximums in the scale of its levels. */
function rulesFor(rand: () => number, mid: number, size: number): Partial<MarketRules> | undefined {
  if (rand() < 0.1) return undefined;
  const step = rand() < 0.1 ? null : tenth(size * pick(rand, [0.0001, 0.001, 0.01, 0.1, 0.5]));
  const some = <T>(p: number, v: T): T | null => (rand() < p ? v : null);
  return {
    amountStep: step,
    minAmount: some(0.4, +((step ?? size / 1000) * pick(rand, [1, 2, 5, 10])).toPrecision(6)),
    minCost: some(0.6, pick(rand, [1, 5, 10, +(mid * size * pick(rand, [0.05, 0.5, 2])).toPrecision(6)])),
    maxAmount: some(0.3, +(size * pick(rand, [0.3, 1, 4]) + (step ?? 0) / 2).toPrecision(8)),
  };
}

/** The scenario of `seed` with order rules on (nearly) every market: the same books and request. */
export function ruledScenario(seed: number): Scenario {
  const s = scenario(seed);
  const rand = prng(seed ^ 0x5eed);
  const byMarket = new Map(MARKETS.map(([symbol, mid, size]) => [symbol, { mid, size }]));
  const specs = s.specs.map((b) => {
    const m = byMarket.get(b.symbol)!;
    return { ...b, rules: rulesFor(rand, m.mid, m.size) };
  });
  return { specs, request: s.request };
}
