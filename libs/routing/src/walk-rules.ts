import type { BookSideView } from '@app/books';
import type { VenueCtx } from './hop-context';
import { advance, couldTakeStep, FIT_SLACK, RuledLeg, type RuledStop } from './ruled-leg';
import { stepsIn } from './venue-rules';
import { recordingTape, type WalkResult, type WalkSpec, type WalkTape } from './walk';

// The rule-aware walk of one venue (docs/semantics.md section 13): the walks of walk.ts, except
// that a venue whose market has a step grows its leg only by whole steps and every leg stops at
// its maxAmount. They run only on hops where some fresh market carries rules (walk.ts is untouched
// otherwise); the merged walk of several venues is in merged-ruled.ts.

/** A rule-aware walk of one venue for the whole pinned amount (best_single, quotes, the fill search). */
export function walkVenueRuled(venue: VenueCtx, spec: WalkSpec, cap: number): WalkResult {
  const w = new RuledLeg(venue, spec, cap);
  if (w.stepUnits > 0 && !w.done) return walkStepped(w, spec.amount, cap, recordingTape());
  const tape = recordingTape();
  let remPinned = spec.amount;
  let full = false;
  while (!w.done) {
    remPinned -= advance(w, remPinned, tape);
    if (w.met || remPinned <= 0) {
      full = true;
      break;
    }
  }
  w.finish();
  return { fills: w.base > 0 ? [w] : [], full };
}

/**
 * One venue alone on a stepped market: nothing interleaves, so the walk runs continuously (as
 * walk.ts's does) to where the pinned amount, the funds, the maximum or the book stop it, and
 * only then rounds that position down to a whole step; the step's cost is the book's prefix cost
 * up to it, as the merged walk computes it. Same legs as a merged walk of this venue alone, at
 * the cost of a plain walk plus one pass to price the step.
 */
function walkStepped(w: RuledLeg, amount: number, cap: number, tape: WalkTape | null): WalkResult {
  const side = w.venue.levels!;
  let remPinned = amount;
  let remCap = cap;
  let cumBase = 0;
  let cumCost = 0;
  let stopLevel = 0;
  let q = 0;
  let stop: RuledStop = 0;
  const { pc, pb, ic, ib } = w;
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
    const byMax = w.limit - cumBase;
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
    cumBase += avail;
    cumCost += cost;
    q = cumBase;
  }
  let k = stepsIn(q, w.stepUnits, w.scale);
  if (k > w.limitSteps) k = w.limitSteps;
  for (; k > 0; k--) {
    // Mostly the step completes on the level the walk stopped on, whose prefix is at hand.
    if (stop !== 0 && stepsIn(cumBase, w.stepUnits, w.scale) < k)
      placeAt(w, side, k, stopLevel, cumBase, cumCost);
    else place(w, side, k);
    // The slack that lets a float depth reach a whole step never lets a leg overshoot.
    if (stop === 0) break;
    const pinned = pc * w.cost + pb * w.base;
    const input = ic * w.cost + ib * w.base;
    if (pinned <= amount + amount * FIT_SLACK && input <= cap + Math.abs(cap) * FIT_SLACK) break;
  }
  if (k === 0) {
    w.steps = 0;
    w.base = 0;
    w.cost = 0;
  }
  w.remCap = cap - (ic * w.cost + ib * w.base);
  if (stop === 3) w.rule = 'max';
  else if (q - w.base > w.stepTol) w.rule = 'step';
  if (stop === 2) w.capLimited = true;
  if (stop === 1 && k > 0) w.fitStopped = couldTakeStep(w, side, k + 1);
  if (tape !== null && k > 0) tape.push(w, w.base, stop + 8 * w.level);
  const left = amount - (pc * w.cost + pb * w.base);
  return { fills: k > 0 ? [w] : [], full: k > 0 && (left <= 0 || w.fitStopped) };
}

/**
 * Put the leg at `k` whole steps: its amount, the level that step completes on (the first whose
 * depth reaches it) with the prefix before that level, and the book's cost of exactly that much.
 */
function place(w: RuledLeg, side: BookSideView, k: number): void {
  let cumBase = 0;
  let cumCost = 0;
  let i = 0;
  for (; i < side.count - 1; i++) {
    const amount = side.amount(i);
    if (stepsIn(cumBase + amount, w.stepUnits, w.scale) >= k) break;
    cumBase += amount;
    cumCost += amount * side.price(i);
  }
  placeAt(w, side, k, i, cumBase, cumCost);
}

/** `place` when the level and its prefix are known. */
function placeAt(
  w: RuledLeg,
  side: BookSideView,
  k: number,
  i: number,
  cumBase: number,
  cumCost: number,
): void {
  const at = (k * w.stepUnits) / w.scale;
  w.level = i;
  w.cumBase = cumBase;
  w.cumCost = cumCost;
  w.steps = k;
  w.base = at;
  w.cost = cumCost + (at - cumBase) * side.price(i);
}
