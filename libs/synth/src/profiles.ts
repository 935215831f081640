import { orderRules, type OrderRules } from './order-rules';
import { between, type Random } from './random';

/**
 * The synthetic venues and markets. Venue ids (`sim00`..`sim59`) are synthetic on purpose: the
 * tiers borrow the shape of real venues (fee schedules of 0.05%-0.25%, deep and thin books,
 * update rates), but no number here was recorded from a real exchange.
 */
export interface MarketSpec {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  /** Price grid. */
  readonly tick: number;
  /** Typical size of one top-of-book level on a tier-1 venue, in base units. */
  readonly size: number;
}

export const MARKETS: readonly MarketSpec[] = [
  { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', tick: 0.1, size: 0.6 },
  { symbol: 'ETH/USDT', base: 'ETH', quote: 'USDT', tick: 0.01, size: 9 },
  { symbol: 'ETH/BTC', base: 'ETH', quote: 'BTC', tick: 0.00001, size: 6 },
  { symbol: 'BTC/USDC', base: 'BTC', quote: 'USDC', tick: 0.1, size: 0.3 },
  { symbol: 'ETH/USDC', base: 'ETH', quote: 'USDC', tick: 0.01, size: 5 },
  { symbol: 'USDC/USDT', base: 'USDC', quote: 'USDT', tick: 0.0001, size: 60_000 },
];

/** A SOL or XRP market: listed by a venue with a probability that depends on its tier. */
export interface AltMarketSpec extends MarketSpec {
  /** Probability that a venue of tier 1, 2, 3 lists it. */
  readonly listing: readonly [number, number, number];
}

/**
 * The SOL and XRP markets (ticks as on the venues that list them). They are drawn, built and
 * updated from random streams of their own, after the six MARKETS, so the six markets' records
 * are the same with or without them. SOL/USDT is on almost every venue; the USDC and BTC pairs
 * mostly on the larger ones, as in reality.
 */
export const ALT_MARKETS: readonly AltMarketSpec[] = [
  { symbol: 'SOL/USDT', base: 'SOL', quote: 'USDT', tick: 0.01, size: 300, listing: [1, 0.95, 0.8] },
  { symbol: 'XRP/USDT', base: 'XRP', quote: 'USDT', tick: 0.0001, size: 15_000, listing: [0.9, 0.85, 0.6] },
  { symbol: 'SOL/USDC', base: 'SOL', quote: 'USDC', tick: 0.01, size: 120, listing: [0.9, 0.5, 0.2] },
  { symbol: 'XRP/USDC', base: 'XRP', quote: 'USDC', tick: 0.0001, size: 6000, listing: [0.65, 0.35, 0.1] },
  { symbol: 'SOL/BTC', base: 'SOL', quote: 'BTC', tick: 0.0000001, size: 60, listing: [0.75, 0.35, 0.1] },
  { symbol: 'XRP/BTC', base: 'XRP', quote: 'BTC', tick: 0.00000001, size: 4000, listing: [0.65, 0.35, 0.1] },
];

export type Tier = 1 | 2 | 3;

interface TierSpec {
  /** Taker fee tiers to draw from (fractions). */
  readonly fees: readonly number[];
  /** Levels per side in a snapshot. */
  readonly levels: number;
  /** Mean book updates per second per book at rateScale 1. */
  readonly rate: number;
  /** Half the quoted spread as a fraction of mid (ticks round it outwards). */
  readonly halfSpread: number;
  /** Gap between adjacent levels as a fraction of mid: [min, max]. */
  readonly spacing: readonly [number, number];
  /** Level size relative to the market's tier-1 size. */
  readonly sizeFactor: number;
  /** Probability that a non-core market is listed. */
  readonly listProbability: number;
  readonly certifiedProbability: number;
  /** Probability the venue publishes no exchange timestamp. */
  readonly noTimestampProbability: number;
}

/** Tier 1 is modelled on the deepest venues, tier 3 on small regional ones. */
export const TIERS: Readonly<Record<Tier, TierSpec>> = {
  1: {
    fees: [0.0005, 0.00075, 0.001],
    levels: 30,
    rate: 1.2,
    halfSpread: 0.00003,
    spacing: [0.00002, 0.00008],
    sizeFactor: 1,
    listProbability: 1,
    certifiedProbability: 1,
    noTimestampProbability: 0,
  },
  2: {
    fees: [0.001, 0.0015, 0.002],
    levels: 20,
    rate: 0.4,
    halfSpread: 0.00015,
    spacing: [0.00005, 0.00025],
    sizeFactor: 0.25,
    listProbability: 0.7,
    certifiedProbability: 0.5,
    noTimestampProbability: 0.2,
  },
  3: {
    fees: [0.002, 0.0025],
    levels: 12,
    rate: 0.15,
    halfSpread: 0.0004,
    spacing: [0.0002, 0.0008],
    sizeFactor: 0.05,
    listProbability: 0.35,
    certifiedProbability: 0.1,
    noTimestampProbability: 0.5,
  },
};

/** Markets every venue lists (the rest are drawn per venue). */
const CORE = new Set(['BTC/USDT', 'ETH/USDT']);

export interface VenueMarket {
  readonly market: MarketSpec;
  readonly takerFeeRate: number;
  /** The venue's order rules for the market (order-rules.ts). */
  readonly rules: OrderRules | null;
}

export interface VenueProfile {
  readonly exchangeId: string;
  readonly tier: Tier;
  readonly certified: boolean;
  readonly hasTimestamp: boolean;
  /** Network latency between the venue's stamp and our receipt, ms. */
  readonly latencyMs: number;
  readonly markets: readonly VenueMarket[];
  /** Its SOL and XRP markets (ALT_MARKETS), drawn from their own random stream. */
  readonly altMarkets: readonly VenueMarket[];
}

export function tierOf(index: number): Tier {
  return index < 8 ? 1 : index < 28 ? 2 : 3;
}

/**
 * `count` venue profiles drawn from `rand` (same seed, same venues); their SOL and XRP listings
 * from `altRand` (none without it), so `rand` is drawn exactly as before those markets existed.
 */
export function venueProfiles(rand: Random, count: number, altRand?: Random): VenueProfile[] {
  const out: VenueProfile[] = [];
  for (let i = 0; i < count; i++) {
    const tier = tierOf(i);
    const t = TIERS[tier];
    // A venue charges one fee tier on all its markets, like most real schedules.
    const fee = t.fees[between(rand, 0, t.fees.length - 1)]!;
    const markets = MARKETS.filter((m) => CORE.has(m.symbol) || rand() < t.listProbability).map((market) => ({
      market,
      takerFeeRate: fee,
      rules: orderRules(tier, i, market.symbol),
    }));
    const altMarkets = altRand
      ? ALT_MARKETS.filter((m) => altRand() < m.listing[tier - 1]!).map((market) => ({
          market,
          takerFeeRate: fee,
          rules: orderRules(tier, i, market.symbol),
        }))
      : [];
    out.push({
      exchangeId: `sim${String(i).padStart(2, '0')}`,
      tier,
      certified: rand() < t.certifiedProbability,
      hasTimestamp: rand() >= t.noTimestampProbability,
      latencyMs: between(rand, 5, tier === 1 ? 30 : 120),
      markets,
      altMarkets,
    });
  }
  return out;
}
