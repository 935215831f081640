import type { BookSideView } from '@app/books';
import type { VenueCtx } from './hop-context';
import { clearFill, FIT_SLACK, stepFits, type LegRule, type RuledFill, type RuledStop } from './ruled-leg';
import { pieceTo, stepsIn, type OrderSteps } from './order-steps';
import { recordingTape, type WalkResult, type WalkSpec, type WalkTape } from './walk';

// The rule-aware walk of one venue (docs/semantics.md section 13): walk.ts's walk, except that a
// venue whose market has a step takes only whole steps and every leg stops at its maxAmount. It
// runs only on hops where some fresh market carries rules (walk.ts is untouched otherwise); the
// merged walk of several venues is in merged-ruled.ts. A hop walks each venue alone twice (its
// quote, and best_single's candidate), so the walk keeps its state in locals and makes one small
// fill: the same numbers, computed in the same order, as the merged walk's legs.

/** The leg of a venue walked alone under its rules. */
class VenueFill implements RuledFill {
  base = 0;
  cost = 0;
  capLimited = false;
  steps = 0;
  rule: LegRule = null;
  fitStopped = false;
  constructor(public venue: VenueCtx) {}
}

/** A rule-aware walk of one venue for the whole pinned amount (best_single, quotes, the fill search). */
export function walkVenueRuled(venue: VenueCtx, spec: WalkSpec, cap: number): WalkResult {
  const fill = new VenueFill(venue);
  const full = walkAlone(fill, spec, cap, recordingTape());
  return { fills: fill.base > 0 ? [fill] : [], full };
}

/**
 * A leg of `venue` with these numbers, of the class single-venue walks make. merged-lean.ts makes
 * its legs with it, so that the code reading a hop's legs meets one class of leg fewer.
 */
export function ruledLeg(
  venue: VenueCtx,
  base: number,
  cost: number,
  capLimited: boolean,
  steps: number,
  rule: LegRule,
  fitStopped: boolean,
): RuledFill {
  const fill = new VenueFill(venue);
  fill.base = base;
  fill.cost = cost;
  fill.capLimited = capLimited;
  fill.steps = steps;
  fill.rule = rule;
  fill.fitStopped = fitStopped;
  return fill;
}

/** A leg object for walkVenueInto, on no venue yet. */
export function venueLeg(): RuledFill {
  return new VenueFill(undefined as unknown as VenueCtx);
}

/**
 * walkVenueRuled into `leg` (made by venueLeg; cleared first): its leg is `leg` when its base is
 * above 0; whether the pinned amount was met. A walk on a proof's tape leaves `leg` there, so a
 * caller reuses one only while no proof records.
 */
export function walkVenueInto(leg: RuledFill, venue: VenueCtx, spec: WalkSpec, cap: number): boolean {
  const fill = leg as VenueFill;
  clearFill(fill, venue);
  return walkAlone(fill, spec, cap, recordingTape());
}

/**
 * The leg of the last `quoteVenueRuled` (base 0: none), valid until the next call. A hop quotes
 * every venue it lists, a walk each, and nothing keeps a quote's leg: one object serves them all.
 */
export const quoteLeg: Readonly<RuledFill> = new VenueFill(undefined as unknown as VenueCtx);

/**
 * walkVenueRuled with unbounded funds for a venue's quote, its leg in `quoteLeg`; whether it was
 * full. Never on a proof's tape (quotes are not part of a proof), which would keep the shared leg.
 */
export function quoteVenueRuled(venue: VenueCtx, spec: WalkSpec): boolean {
  const fill = quoteLeg as VenueFill;
  clearFill(fill, venue);
  return walkAlone(fill, spec, Infinity, null);
}

/** Walk `fill`'s venue alone into `fill`, its takes on `tape`; whether the pinned amount was met. */
function walkAlone(fill: VenueFill, spec: WalkSpec, cap: number, tape: WalkTape | null): boolean {
  const venue = fill.venue;
  const side = venue.levels;
  if (side === null || side.count === 0 || !(cap > 0)) return false;
  const r = venue.rules;
  const buy = spec.side === 'buy';
  const up = 1 + venue.fee;
  const onCost = spec.pinned === 'in' ? buy : !buy;
  // A piece of `b` base costing `c` raw is worth `pc*c + pb*b` pinned and `ic*c + ib*b` input.
  const pc = onCost ? (buy ? up : 1 - venue.fee) : 0;
  const pb = onCost ? 0 : 1;
  const ic = buy ? up : 0;
  const ib = buy ? 0 : 1;
  if (r === null || r.stepUnits === 0)
    return walkStepless(fill, side, pc, pb, ic, ib, r?.maxBase ?? Infinity, spec.amount, cap, tape);
  return walkStepped(fill, side, pc, pb, ic, ib, r, spec.amount, cap, tape);
}

/** One venue alone on a market without a step: each level taken up to the pinned amount, the funds or the maximum. */
function walkStepless(
  fill: VenueFill,
  side: BookSideView,
  pc: number,
  pb: number,
  ic: number,
  ib: number,
  limit: number,
  amount: number,
  cap: number,
  tape: WalkTape | null,
): boolean {
  let remPinned = amount;
  let remCap = cap;
  let base = 0;
  let cost = 0;
  let full = false;
  for (let level = 0; ;) {
    const price = side.price(level);
    let y = side.amount(level);
    let stop: RuledStop = 0;
    const byPinned = remPinned / (pc * price + pb);
    if (byPinned <= y) {
      y = byPinned;
      stop = 1;
    }
    const byCap = remCap / (ic * price + ib);
    if (byCap < y) {
      y = byCap;
      stop = 2;
    }
    const byMax = limit - base;
    // A level of exactly the rounded room left would also pass the maximum: cut it there too.
    if (byMax < y || (byMax === y && base + y > limit)) {
      y = pieceTo(limit, base);
      stop = 3;
    }
    const b = y > 0 ? y : 0;
    const c = b * price;
    base += b;
    cost += c;
    remPinned -= pc * c + pb * b;
    remCap -= ic * c + ib * b;
    if (tape !== null && b > 0) tape.push(fill, b, stop);
    if (stop !== 0) {
      if (stop === 2) fill.capLimited = true;
      else if (stop === 3) fill.rule = 'max';
      // Float dust can bring what is left to zero on a take bounded by the funds or the maximum.
      full = stop === 1 || remPinned <= 0;
      break;
    }
    level++;
    const more = level < side.count;
    if (more && remCap <= 0) fill.capLimited = true;
    if (remPinned <= 0) {
      full = true;
      break;
    }
    if (!more || remCap <= 0) break;
  }
  fill.base = base;
  fill.cost = cost;
  return full;
}

/**
 * One venue alone on a stepped market: nothing interleaves, so the walk runs continuously (as
 * walk.ts's does) to where the pinned amount, the funds, the maximum or the book stop it, and
 * only then rounds that position down to a whole step; the step's cost is the book's prefix cost
 * up to it, as the merged walk computes it. Same legs as a merged walk of this venue alone, at
 * the cost of a plain walk plus one pass to price the step.
 */
function walkStepped(
  fill: VenueFill,
  side: BookSideView,
  pc: number,
  pb: number,
  ic: number,
  ib: number,
  rules: OrderSteps,
  amount: number,
  cap: number,
  tape: WalkTape | null,
): boolean {
  const { stepUnits, scale, maxBase, maxSteps } = rules;
  let remPinned = amount;
  let remCap = cap;
  let cumBase = 0;
  let cumCost = 0;
  // The prefix before the level last walked: the last level's, when the walk takes the whole book.
  let lastBase = 0;
  let lastCost = 0;
  let stopLevel = 0;
  let q = 0;
  let stop: RuledStop = 0;
  for (let i = 0; i < side.count; i++) {
    const price = side.price(i);
    const avail = side.amount(i);
    let y = avail;
    const byPinned = remPinned / (pc * price + pb);
    if (byPinned <= y) {
      y = byPinned;
      stop = 1;
    }
    const byCap = remCap / (ic * price + ib);
    if (byCap < y) {
      y = byCap;
      stop = 2;
    }
    const byMax = maxBase - cumBase;
    if (byMax < y) {
      y = byMax;
      stop = 3;
    }
    if (stop !== 0) {
      q = cumBase + y;
      stopLevel = i;
      break;
    }
    const cost = avail * price;
    remPinned -= pc * cost + pb * avail;
    remCap -= ic * cost + ib * avail;
    lastBase = cumBase;
    lastCost = cumCost;
    cumBase += avail;
    cumCost += cost;
    q = cumBase;
  }
  // The leg at k whole steps: the level that step completes on (the first whose depth reaches
  // it), that level's prefix, and the book's cost of exactly that much.
  let level = 0;
  let levelBase = 0;
  let levelCost = 0;
  let base = 0;
  let cost = 0;
  let k = stepsIn(q, stepUnits, scale);
  if (k > maxSteps) k = maxSteps;
  for (; k > 0; k--) {
    // Mostly the step completes on the level the walk stopped on, whose prefix is at hand.
    if (stop !== 0 && stepsIn(cumBase, stepUnits, scale) < k) {
      level = stopLevel;
      levelBase = cumBase;
      levelCost = cumCost;
    } else if (stop === 0 && stepsIn(lastBase, stepUnits, scale) < k) {
      // The walk took the whole book and the levels before the last do not reach k steps: the
      // last level completes it (a book's amounts are positive, so no earlier level does), with
      // the prefix summed as completingLevel sums it.
      level = side.count - 1;
      levelBase = lastBase;
      levelCost = lastCost;
    } else {
      level = completingLevel(side, k, stepUnits, scale);
      levelBase = prefixBase;
      levelCost = prefixCost;
    }
    base = (k * stepUnits) / scale;
    cost = levelCost + (base - levelBase) * side.price(level);
    // The slack that lets a float depth reach a whole step never lets a leg overshoot.
    if (stop === 0) break;
    const pinned = pc * cost + pb * base;
    const input = ic * cost + ib * base;
    if (pinned <= amount + amount * FIT_SLACK && input <= cap + Math.abs(cap) * FIT_SLACK) break;
  }
  if (k === 0) {
    base = 0;
    cost = 0;
  }
  fill.steps = k;
  fill.base = base;
  fill.cost = cost;
  if (stop === 3) fill.rule = 'max';
  else if (q - base > rules.step * 1e-9) fill.rule = 'step';
  if (stop === 2) fill.capLimited = true;
  if (stop === 1 && k > 0 && k + 1 <= maxSteps) {
    const left = cap - (ic * cost + ib * base);
    fill.fitStopped = stepFits(side, k + 1, rules, ic, ib, level, levelBase, levelCost, cost, base, left);
  }
  if (tape !== null && k > 0) tape.push(fill, base, stop + 8 * level);
  const left = amount - (pc * cost + pb * base);
  return k > 0 && (left <= 0 || fill.fitStopped);
}

/** `completingLevel`'s prefix of the level it returns (module state: no allocation on this path). */
let prefixBase = 0;
let prefixCost = 0;

/** The first level whose depth reaches `k` whole steps (the last level when none does), its prefix in prefixBase/prefixCost. */
function completingLevel(side: BookSideView, k: number, stepUnits: number, scale: number): number {
  let cumBase = 0;
  let cumCost = 0;
  let i = 0;
  for (; i < side.count - 1; i++) {
    const amount = side.amount(i);
    if (stepsIn(cumBase + amount, stepUnits, scale) >= k) break;
    cumBase += amount;
    cumCost += amount * side.price(i);
  }
  prefixBase = cumBase;
  prefixCost = cumCost;
  return i;
}
