import { beatsBest, cannotBeatFull, capsOf, pinnedAchieved, rankingPrice, type CapOf } from './fill-value';
import { fillSearch } from './fill-search';
import type { VenueCtx } from './hop-context';
import { baseOfSteps, executable, missedMinimum, stepsIn } from './order-steps';
import { leanMerged, type LeanWalkResult } from './merged-lean';
import { MergedRuledWalk } from './merged-ruled';
import { NONE_DROPPED } from './ruled-drops';
import { venueLeg, walkVenueInto } from './walk-rules';
import type { RuledFill } from './ruled-leg';
import { recordingTape, type DropReason, type WalkResult, type WalkSpec } from './walk';

// The strategies on a hop where some market carries order rules (docs/semantics.md section 13).

/**
 * split_optimal with rules over `venues`: the rule-aware merged walk; a leg under its venue's
 * minimum amount or cost drops that venue and the walk runs again without it, until every leg is
 * executable. When the hop then ends short because of a drop or a step too coarse for what was
 * left, the fill search looks for a set of at most `maxCount` venues that meets the amount.
 */
export function executableMerged(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  capOf: CapOf,
  maxCount: number,
): WalkResult {
  const caps = capsOf(venues, capOf);
  // A quote takes the lean walk; a proof records its takes on merged-ruled.ts's legs.
  const walked =
    (recordingTape() === null ? leanMerged(venues, spec, caps) : null) ?? mergedRuled(venues, spec, caps);
  const { fills, dropped } = walked;
  if (walked.full) return { fills, full: true, dropped };
  if (!walked.short) return { fills, full: false, dropped };
  const searched = fillSearch(venues, spec, capOf, maxCount);
  if (searched === null) return { fills, full: false, dropped };
  return { fills: searched.fills, full: searched.full, searched: true };
}

/** The merged walk with its drops on MergedRuledWalk: what a proof records, and the lean walk's fallback. */
function mergedRuled(venues: readonly VenueCtx[], spec: WalkSpec, caps: readonly number[]): LeanWalkResult {
  const walk = new MergedRuledWalk(venues, spec, caps);
  walk.walk();
  let short = false;
  while (walk.dropAndWalk()) short = true;
  walk.finish();
  const dropped = walk.dropped();
  const { fills, full } = walk.result();
  // Short without a drop: a step too coarse for what was left (the first walk is the last one).
  if (!full && !short) short = walk.fitStops() ?? fitStopsOfPlainWalk(venues, spec, caps);
  return { fills: fills as RuledFill[], full, dropped, short };
}

/** Whether a merged walk that makes a leg for every venue it reaches has one stop for a whole step. */
function fitStopsOfPlainWalk(venues: readonly VenueCtx[], spec: WalkSpec, caps: readonly number[]): boolean {
  const walk = new MergedRuledWalk(venues, spec, caps, { visitAll: true });
  walk.walk();
  walk.finish();
  return walk.fitStops() === true;
}

/** beatsBest reads only whether a result is full. */
const FULL = { full: true };
const PARTIAL = { full: false };

/**
 * best_single with rules: each venue walked alone under its rules; one whose answer is under its
 * minimum fills nothing. While no proof records, the venues are walked into one leg object, kept
 * (and another made) only when it becomes the best.
 */
export function bestSingleRuled(venues: readonly VenueCtx[], spec: WalkSpec, capOf: CapOf): WalkResult {
  let best: RuledFill | null = null;
  let bestFull = false;
  let bestPinned = 0;
  let bestPrice = 0;
  const better = spec.side === 'buy' ? -1 : 1;
  let dropped: Map<VenueCtx, DropReason> | null = null;
  // Once a fill is full, venues whose best level could not price better are not walked (no proof recorded).
  const prune = recordingTape() === null;
  let spare: RuledFill | null = null;
  for (const venue of venues) {
    if (prune && best !== null && bestFull && cannotBeatFull(venue, bestPrice, better)) continue;
    const fill: RuledFill = prune ? (spare ??= venueLeg()) : venueLeg();
    const full = walkVenueInto(fill, venue, spec, capOf(venue));
    if (!(fill.base > 0)) continue;
    if (!executable(venue.rules, fill)) {
      (dropped ??= new Map()).set(venue, missedMinimum(venue.rules!, fill));
      continue;
    }
    const achieved = pinnedAchieved(fill, spec);
    const price = rankingPrice(fill);
    const was = best === null ? null : bestFull ? FULL : PARTIAL;
    if (beatsBest(full ? FULL : PARTIAL, achieved, price, was, bestPinned, bestPrice, better)) {
      best = fill;
      bestFull = full;
      bestPinned = achieved;
      bestPrice = price;
      spare = null;
    }
  }
  return { fills: best === null ? [] : [best], full: bestFull, dropped: dropped ?? NONE_DROPPED };
}

/** What a venue could execute at most: its walked side's base, in whole steps, up to its maximum. */
export function executableDepth(venue: VenueCtx): number {
  const side = venue.levels;
  if (side === null) return 0;
  let d = 0;
  for (let i = 0; i < side.count; i++) d += side.amount(i);
  const r = venue.rules;
  if (r === null) return d;
  if (r.stepUnits === 0) return Math.min(d, r.maxBase);
  return baseOfSteps(r, Math.min(stepsIn(d, r.stepUnits, r.scale), r.maxSteps));
}
