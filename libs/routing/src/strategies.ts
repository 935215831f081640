import { byCodeUnit as cmp } from '@app/events';
import type { VenueCtx } from './hop-context';
import { FILL_EPS } from './numeric';
import { walkMerged, walkVenue, type Fill, type WalkResult, type WalkSpec } from './walk';
import type { Strategy } from './types';

/** Funding cap of a venue in the hop's input asset (Infinity when unconstrained). */
export type CapOf = (venue: VenueCtx) => number;

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

/**
 * best_single (clarifications 4): venues that fill the whole size first, best ranking price among
 * them; otherwise the venue filling the most, then the best price; ties by exchangeId.
 */
export function bestSingle(venues: readonly VenueCtx[], spec: WalkSpec, capOf: CapOf): WalkResult {
  let best: WalkResult | null = null;
  let bestPinned = 0;
  let bestPrice = 0;
  const better = spec.side === 'buy' ? -1 : 1;
  for (const venue of venues) {
    const r = walkVenue(venue, spec, capOf(venue));
    const fill = r.fills[0];
    if (fill === undefined) continue;
    const achieved = pinnedAchieved(fill, spec);
    const price = rankingPrice(fill);
    // Fills equal up to float dust (two venues capped at one balance) compare on price. Venues
    // arrive in exchangeId order, so keeping the first of equals breaks ties by exchangeId.
    const more = achieved > bestPinned * (1 + FILL_EPS);
    const same = !more && achieved >= bestPinned * (1 - FILL_EPS);
    if (
      best === null ||
      (r.full && !best.full) ||
      (r.full === best.full && !r.full && more) ||
      (r.full === best.full && (r.full || same) && (price - bestPrice) * better > 0)
    ) {
      best = r;
      bestPinned = achieved;
      bestPrice = price;
    }
  }
  return best ?? { fills: [], full: false };
}

function mergedOver(venues: readonly VenueCtx[], spec: WalkSpec, capOf: CapOf): WalkResult {
  return walkMerged(venues, spec, venues.map(capOf));
}

/** Legs in output order: amount descending, ties by exchangeId (clarifications 4). */
export function byLegOrder(a: Fill, b: Fill): number {
  return b.base - a.base || cmp(a.venue.exchangeId, b.venue.exchangeId);
}

/** Base units on the walked side of a venue's book: "deepest" in split_capped's fallback. */
function depth(venue: VenueCtx): number {
  const side = venue.levels;
  if (side === null) return 0;
  let d = 0;
  for (let i = 0; i < side.count; i++) d += side.amount(i);
  return d;
}

/** Keep `venues` (in their exchangeId order) whose ids are in `keep`. */
function subset(venues: readonly VenueCtx[], keep: ReadonlySet<string>): VenueCtx[] {
  return venues.filter((v) => keep.has(v.exchangeId));
}

/**
 * split_capped (spec 4.1): solve unconstrained, keep the maxVenues highest-volume venues and
 * re-solve; when that set cannot fill, fall back to the maxVenues deepest venues, unless they
 * fill less than the highest-volume set did (then the latter stands; docs/semantics.md).
 */
function splitCapped(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  maxVenues: number,
): WalkResult {
  const free = mergedOver(venues, spec, capOf);
  if (free.fills.length <= maxVenues) return free;
  const top = new Set(
    [...free.fills]
      .sort(byLegOrder)
      .slice(0, maxVenues)
      .map((f) => f.venue.exchangeId),
  );
  const capped = mergedOver(subset(venues, top), spec, capOf);
  if (capped.full) return capped;
  const deepest = venues
    .map((v) => ({ v, d: depth(v) }))
    .sort((a, b) => b.d - a.d || cmp(a.v.exchangeId, b.v.exchangeId))
    .slice(0, maxVenues)
    .map((x) => x.v.exchangeId);
  const fallback = mergedOver(subset(venues, new Set(deepest)), spec, capOf);
  return fallback.full || totalPinned(fallback, spec) > totalPinned(capped, spec) ? fallback : capped;
}

/** Solve one strategy over a venue set, without the minLegNotional floor. */
export function solveStrategy(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  opts: StrategyOptions,
): WalkResult {
  switch (opts.strategy) {
    case 'best_single':
      return bestSingle(venues, spec, capOf);
    case 'split_optimal':
      return mergedOver(venues, spec, capOf);
    case 'split_capped':
      return splitCapped(venues, spec, capOf, opts.maxVenues);
  }
}

/**
 * Apply minLegNotional (spec 4.1): drop venues whose leg notional (raw quote value) is below the
 * floor and re-solve without them, until no leg is below it. Sub-floor legs stay when every leg is
 * below the floor, or when balances are in play and the survivors cannot absorb the freed size.
 */
export function solveHopWalk(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  opts: StrategyOptions,
): WalkResult {
  let allowed = venues;
  let result = solveStrategy(allowed, spec, capOf, opts);
  if (opts.minLegNotional <= 0) return result;
  for (;;) {
    const below = result.fills.filter((f) => f.cost < opts.minLegNotional);
    if (below.length === 0 || below.length === result.fills.length) return result;
    const drop = new Set(below.map((f) => f.venue.exchangeId));
    allowed = allowed.filter((v) => !drop.has(v.exchangeId));
    const next = solveStrategy(allowed, spec, capOf, opts);
    if (opts.balancesInPlay && totalPinned(next, spec) < totalPinned(result, spec) * (1 - 1e-12))
      return result;
    result = next;
  }
}
