import { byCodeUnit as cmp } from '@app/events';
import type { VenueCtx } from './hop-context';
import { FILL_EPS } from './numeric';
import type { Strategy } from './types';
import type { Fill, WalkResult, WalkSpec } from './walk';

// What a walk's fills amount to, shared by the strategies with and without venue rules.

/** Funding cap of a venue in the hop's input asset (Infinity when unconstrained). */
export type CapOf = (venue: VenueCtx) => number;

/** The caps of a hop solved without balances: every venue unconstrained. */
export const UNCAPPED: CapOf = () => Infinity;

/** At least as many Infinity caps as the most venues seen, shared: nothing writes to them. */
let infinite: number[] = [];

/**
 * Each venue's cap, index-aligned with `venues`. Without balances that is Infinity for all, read
 * from one shared list that may be longer than `venues` (a merged walk reads only its venues'
 * indices) instead of a list made per walk.
 */
export function capsOf(venues: readonly VenueCtx[], capOf: CapOf): readonly number[] {
  if (capOf !== UNCAPPED) return venues.map(capOf);
  if (infinite.length < venues.length) {
    const grown: number[] = [];
    for (let v = 0; v < venues.length; v++) grown.push(Infinity);
    infinite = grown;
  }
  return infinite;
}

export interface StrategyOptions {
  readonly strategy: Strategy;
  readonly maxVenues: number;
  readonly minLegNotional: number;
  /** Balances were supplied (changes the minLegNotional exception). */
  readonly balancesInPlay: boolean;
}

/** Amount of the pinned side a fill achieved. */
export function pinnedAchieved(fill: Fill, spec: WalkSpec): number {
  const f = fill.venue.fee;
  if (spec.pinned === 'in') return spec.side === 'buy' ? fill.cost * (1 + f) : fill.base;
  return spec.side === 'buy' ? fill.base : fill.cost * (1 - f);
}

/** Sum of the pinned side over fills, in fill order. */
export function totalPinned(result: WalkResult, spec: WalkSpec): number {
  let t = 0;
  for (const fill of result.fills) t += pinnedAchieved(fill, spec);
  return t;
}

/** Fee- and staleness-adjusted VWAP of a fill: the ranking value. */
export function rankingPrice(fill: Fill): number {
  return (fill.cost / fill.base) * fill.venue.rankMul;
}

/** Legs in output order: amount descending, ties by exchangeId (clarifications 4). */
export function byLegOrder(a: Fill, b: Fill): number {
  return b.base - a.base || cmp(a.venue.exchangeId, b.venue.exchangeId);
}

/**
 * Whether a best_single candidate beats the best so far (clarifications 4): a full fill beats a
 * partial one; among partial ones more filled wins; then (full, or filled alike up to float dust,
 * as two venues capped at one balance are) the better ranking price. Venues come in exchangeId
 * order and equals keep the first, so ties go by exchangeId.
 */
export function beatsBest(
  r: { readonly full: boolean },
  achieved: number,
  price: number,
  best: { readonly full: boolean } | null,
  bestPinned: number,
  bestPrice: number,
  better: -1 | 1,
): boolean {
  const more = achieved > bestPinned * (1 + FILL_EPS);
  const same = !more && achieved >= bestPinned * (1 - FILL_EPS);
  return (
    best === null ||
    (r.full && !best.full) ||
    (r.full === best.full && !r.full && more) ||
    (r.full === best.full && (r.full || same) && (price - bestPrice) * better > 0)
  );
}

/** How far past a venue's best level price a fill's ranking price may land by float rounding. */
const BOUND_SLACK = 1e-9;

/**
 * Whether `venue` surely cannot beat a full best_single fill of ranking price `bestPrice`: a
 * fill's average price is no better than its book's first level, so its ranking price is no
 * better than that level's ranking price (within float rounding), and only a strictly better
 * price beats a full fill. A walk that records a proof walks every venue (its tape and drops).
 */
export function cannotBeatFull(venue: VenueCtx, bestPrice: number, better: -1 | 1): boolean {
  const side = venue.levels;
  if (side === null || side.count === 0) return true;
  const bound = side.price(0) * venue.rankMul;
  return better === -1 ? bound * (1 - BOUND_SLACK) >= bestPrice : bound * (1 + BOUND_SLACK) <= bestPrice;
}
