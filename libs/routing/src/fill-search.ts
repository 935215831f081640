import { byCodeUnit as cmp } from '@app/events';
import { pinnedAchieved, type CapOf } from './fill-value';
import type { VenueCtx } from './hop-context';
import { FILL_EPS } from './numeric';
import { executable, stepsAtLeast, baseOfSteps, type OrderSteps } from './order-steps';
import { MergedRuledWalk, type RuledWalkResult } from './merged-ruled';
import { walkVenueRuled } from './walk-rules';
import type { WalkResult, WalkSpec } from './walk';

// The fill search (docs/semantics.md section 13): when dropping venues under their minimums, or
// steps too coarse for what was left, leave a hop short, look for a set of venues whose minimums
// fit in the pinned amount and whose executable depth covers it. Given such a set, laying each
// venue's minimum first and walking the rest over the set meets the amount within the dust.

/** Nodes of the subset tree the search may visit: every subset of 12 venues. */
export const SEARCH_BUDGET = 8192;

/** One venue's executable range on the pinned side. */
interface Range {
  readonly venue: VenueCtx;
  /** Pinned value of its smallest executable leg. */
  readonly lo: number;
  /** Pinned value of everything it can execute (depth, funds, maximum). */
  readonly hi: number;
  /** Base units of that smallest leg. */
  readonly floor: number;
  /** Ranking price of its best level. */
  readonly rank: number;
}

/** Raw cost of the book's first `base` units on the walked side, summed as the walks sum it. */
function costAt(venue: VenueCtx, base: number): number {
  const side = venue.levels!;
  let cumBase = 0;
  let cumCost = 0;
  for (let i = 0; i < side.count; i++) {
    const amount = side.amount(i);
    if (cumBase + amount >= base || i === side.count - 1) return cumCost + (base - cumBase) * side.price(i);
    cumBase += amount;
    cumCost += amount * side.price(i);
  }
  return 0;
}

/** Base units where the book's raw cost first reaches `cost`. */
function baseAtCost(venue: VenueCtx, cost: number): number {
  const side = venue.levels!;
  let cumBase = 0;
  let cumCost = 0;
  for (let i = 0; i < side.count; i++) {
    const price = side.price(i);
    const amount = side.amount(i);
    if (cumCost + amount * price >= cost || i === side.count - 1) return cumBase + (cost - cumCost) / price;
    cumBase += amount;
    cumCost += amount * price;
  }
  return 0;
}

/** The smallest leg the venue's rules allow, in base units (whole steps on a stepped market). */
function smallestLeg(venue: VenueCtx, rules: OrderSteps | null): number {
  if (rules === null) return 0;
  const byCost = rules.minCost > 0 ? baseAtCost(venue, rules.minCost) : 0;
  const least = Math.max(rules.minAmount, byCost);
  if (rules.stepUnits === 0) return least;
  let k = Math.max(1, stepsAtLeast(least, rules.stepUnits, rules.scale));
  // An amount or cost a hair under its minimum would be refused: one more step settles it.
  if (baseOfSteps(rules, k) < rules.minAmount || costAt(venue, baseOfSteps(rules, k)) < rules.minCost) k++;
  return baseOfSteps(rules, k);
}

function rangeOf(venue: VenueCtx, spec: WalkSpec, cap: number): Range | null {
  const all = walkVenueRuled(venue, { side: spec.side, pinned: spec.pinned, amount: Infinity }, cap);
  const top = all.fills[0];
  if (top === undefined || !executable(venue.rules, top)) return null;
  const floor = smallestLeg(venue, venue.rules);
  if (floor > top.base) return null;
  const lo = pinnedAchieved({ venue, base: floor, cost: costAt(venue, floor), capLimited: false }, spec);
  const rank = venue.levels!.price(0) * venue.rankMul;
  return { venue, lo, hi: pinnedAchieved(top, spec), floor, rank };
}

/** A set of at most `maxCount` ranges with sum(lo) <= amount <= sum(hi), best-ranked first; null if none within the budget. */
function chooseSet(ranges: readonly Range[], amount: number, maxCount: number): Range[] | null {
  const need = amount * (1 - FILL_EPS);
  const suffix = new Float64Array(ranges.length + 1);
  for (let i = ranges.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + ranges[i]!.hi;
  const chosen: Range[] = [];
  let budget = SEARCH_BUDGET;
  const visit = (i: number, lo: number, hi: number): boolean => {
    if (budget-- <= 0) return false;
    if (chosen.length > 0 && lo <= amount && hi >= need) return true;
    if (i === ranges.length || hi + suffix[i]! < need) return false;
    const r = ranges[i]!;
    if (chosen.length < maxCount && lo + r.lo <= amount) {
      chosen.push(r);
      if (visit(i + 1, lo + r.lo, hi + r.hi)) return true;
      chosen.pop();
    }
    return visit(i + 1, lo, hi);
  };
  return visit(0, 0, 0) ? chosen : null;
}

/**
 * Meet the pinned amount over `venues` (in exchangeId order) with executable legs on at most
 * `maxCount` venues, when some set of them can; null when none can (or the budget ran out).
 */
export function fillSearch(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  maxCount: number,
): WalkResult | null {
  const ranges: Range[] = [];
  for (const venue of venues) {
    if (venue.levels === null || venue.levels.count === 0) continue;
    const r = rangeOf(venue, spec, capOf(venue));
    if (r !== null) ranges.push(r);
  }
  const better = spec.side === 'buy' ? 1 : -1;
  ranges.sort((a, b) => (a.rank - b.rank) * better || cmp(a.venue.exchangeId, b.venue.exchangeId));
  const set = chooseSet(ranges, spec.amount, maxCount);
  if (set === null) return null;
  const inSet = new Set(set.map((r) => r.venue));
  const members = venues.filter((v) => inSet.has(v));
  const floors = members.map((v) => set.find((r) => r.venue === v)!.floor);
  const result = walkMergedRuled(members, spec, members.map(capOf), floors);
  if (!result.full || result.fills.some((f) => !executable(f.venue.rules, f))) return null;
  return result;
}

/**
 * The merged walk once over `venues`, with no drops; `floors` (the fill search) first lays each
 * venue's leg up to that many base units.
 */
export function walkMergedRuled(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  caps: readonly number[],
  floors: readonly number[] | null = null,
): RuledWalkResult {
  const walk = new MergedRuledWalk(venues, spec, caps, { floors });
  const result = walk.run();
  walk.finish();
  return result;
}
