import { byCodeUnit as cmp } from '@app/events';
import {
  beatsBest,
  cannotBeatFull,
  byLegOrder,
  pinnedAchieved,
  rankingPrice,
  totalPinned,
  type CapOf,
  type StrategyOptions,
} from './fill-value';
import type { VenueCtx } from './hop-context';
import { bestSingleRuled, executableDepth, executableMerged } from './strategies-rules';
import { recordingTape, walkMerged, walkVenue, type WalkResult, type WalkSpec } from './walk';

/**
 * best_single (clarifications 4): venues that fill the whole size first, best ranking price among
 * them; otherwise the venue filling the most, then the best price; ties by exchangeId.
 */
export function bestSingle(venues: readonly VenueCtx[], spec: WalkSpec, capOf: CapOf): WalkResult {
  let best: WalkResult | null = null;
  let bestPinned = 0;
  let bestPrice = 0;
  const better = spec.side === 'buy' ? -1 : 1;
  // Once a fill is full, venues whose best level could not price better are not walked (no proof recorded).
  const prune = recordingTape() === null;
  for (const venue of venues) {
    if (prune && best !== null && best.full && cannotBeatFull(venue, bestPrice, better)) continue;
    const r = walkVenue(venue, spec, capOf(venue));
    const fill = r.fills[0];
    if (fill === undefined) continue;
    const achieved = pinnedAchieved(fill, spec);
    const price = rankingPrice(fill);
    if (beatsBest(r, achieved, price, best, bestPinned, bestPrice, better)) {
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

/** A merged solve over a venue set, whose fill search (with rules) may use at most `maxCount` venues. */
type Merged = (venues: readonly VenueCtx[], maxCount: number) => WalkResult;

/**
 * split_capped (spec 4.1): solve unconstrained, keep the maxVenues highest-volume venues and
 * re-solve; when that set cannot fill, fall back to the maxVenues deepest venues, unless they
 * fill less than the highest-volume set did (then the latter stands; docs/semantics.md). With
 * venue rules the solves are executable ones and the depth is what a venue could execute.
 */
function splitCapped(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  maxVenues: number,
  merged: Merged,
  depthOf: (venue: VenueCtx) => number,
): WalkResult {
  const free = merged(venues, Infinity);
  if (free.fills.length <= maxVenues) return free;
  const top = new Set(
    [...free.fills]
      .sort(byLegOrder)
      .slice(0, maxVenues)
      .map((f) => f.venue.exchangeId),
  );
  const capped = merged(subset(venues, top), maxVenues);
  if (capped.full) return capped;
  const deepest = venues
    .map((v) => ({ v, d: depthOf(v) }))
    .sort((a, b) => b.d - a.d || cmp(a.v.exchangeId, b.v.exchangeId))
    .slice(0, maxVenues)
    .map((x) => x.v.exchangeId);
  const fallback = merged(subset(venues, new Set(deepest)), maxVenues);
  return fallback.full || totalPinned(fallback, spec) > totalPinned(capped, spec) ? fallback : capped;
}

/** Some venue's market carries order rules: the rule-aware strategies apply (strategies-rules.ts). */
function anyRules(venues: readonly VenueCtx[]): boolean {
  for (const v of venues) if (v.rules !== null) return true;
  return false;
}

/** Solve one strategy over a venue set, without the minLegNotional floor. */
export function solveStrategy(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  opts: StrategyOptions,
): WalkResult {
  const ruled = anyRules(venues);
  switch (opts.strategy) {
    case 'best_single':
      return ruled ? bestSingleRuled(venues, spec, capOf) : bestSingle(venues, spec, capOf);
    case 'split_optimal':
      return ruled ? executableMerged(venues, spec, capOf, Infinity) : mergedOver(venues, spec, capOf);
    case 'split_capped':
      return ruled
        ? splitCapped(
            venues,
            spec,
            opts.maxVenues,
            (vs, max) => executableMerged(vs, spec, capOf, max),
            executableDepth,
          )
        : splitCapped(venues, spec, opts.maxVenues, (vs) => mergedOver(vs, spec, capOf), depth);
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
