import type { VenueCtx } from './hop-context';
import {
  CAPPED,
  DONE,
  LeanState,
  leanLegs,
  MET,
  parkDust,
  RULE_MAX,
  RULE_SHIFT,
  RULE_STEP,
  SAFE,
  settles,
  UNDO,
} from './lean-state';
import { pieceTo, STEP_SLACK } from './order-steps';
import { DROPPED_MIN_AMOUNT, DROPPED_MIN_COST, droppedLookup, NONE_DROPPED } from './ruled-drops';
import { FIT_SLACK, type RuledFill } from './ruled-leg';
import type { DropLookup, WalkSpec } from './walk';

// split_optimal's walk with rules (docs/semantics.md section 13) as a quote runs it: no proof
// recording and no floors of the fill search. It is merged-ruled.ts's walk in the form of walk.ts's
// plain merged walk: every venue in one heap from the start, each leg's numbers in typed arrays,
// and the step written out in the loop. The step is `advance` (ruled-leg.ts): the same operations
// in the same order on the same numbers wherever a result depends on them, so every leg is the
// same to the bit (a quotient that cannot stop the take is not computed: CLEAR). A venue under its
// minimum is dropped as merged-ruled.ts drops it: back to the first step that reached it, from the
// steps' undo record, and on from there without it. Near the end, venues that surely take nothing
// of the dust left are set aside (`parkDust`), and drops that cannot change a leg are skipped
// (`settles`), as there. Left to merged-ruled.ts: a short walk (SHORT_WALK_PER_VENUE), where
// that walk's passing by the venues it does not reach is cheaper; proofs, whose tape holds its leg
// objects; and the fill search's floors. The walk's setting up and its legs at the end are in
// lean-state.ts: out of this function, which keeps its loop's code small (measured: 7 % faster).

/**
 * What the lean walk found. A leg's `rule` is read only by proofs, which record merged-ruled.ts's
 * walk: here a leg set aside keeps the rule it had before its last turn, which takes nothing. A
 * leg's `fitStopped` is read only of a walk that ended short, and is told only then.
 */
export interface LeanWalkResult {
  /** The legs with base > 0, in venue order. */
  readonly fills: RuledFill[];
  /** The pinned amount was met, or a leg that took steps stopped for a whole step (as merged-ruled.ts has it). */
  readonly full: boolean;
  readonly dropped: DropLookup;
  /** Some venue was dropped, or one stopped because its next whole step did not fit. */
  readonly short: boolean;
}

/**
 * A walk whose amount is at most this many times one venue's first level per venue walked over is
 * left to merged-ruled.ts: the lean walk sets every venue up at the start, where that walk passes
 * by those it does not reach. Measured on the bench's merged walks, against that walk's time: 0.46x
 * where the amount held more first levels than half the venues' count, 0.94-1.05x between an
 * eighth and a half, and 1.1-1.7x under an eighth.
 */
const SHORT_WALK_PER_VENUE = 1 / 8;

/**
 * A take's room (pinned amount or funds left, over what one base unit uses of it) is compared with
 * the level's amount by a quotient only when the product says it may be within it: a room this
 * far above `y` times the per-unit use is above `y` as a quotient too, whatever the rounding.
 */
const CLEAR = 1 + 1e-9;

let state = new LeanState(64);

/**
 * The merged walk with rules over `venues` (in exchangeId order), with its drops, for a quote: the
 * same legs (amount, cost, whole steps, whether funds stopped them) and fullness as merged-ruled.ts's
 * MergedRuledWalk and its rounds of `dropAndWalk`, and the same venues dropped. Null, for that walk
 * to run instead, when the amount is at most `shortWalk` times what one venue's first level holds,
 * or a ranking price is not a finite number (only that walk's order is defined then).
 */
export function leanMerged(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  caps: readonly number[],
  shortWalk = venues.length * SHORT_WALK_PER_VENUE,
): LeanWalkResult | null {
  const n = venues.length;
  if (state.capacity < n) state = new LeanState(Math.max(n, 2 * state.capacity));
  const s = state;
  const { base, cost, steps, cumBase, cumCost, remCap, keys, level, madeAt, flags, out, heap } = s;
  const { dirty, isDirty, parked, parkedAt } = s;
  const buy = spec.side === 'buy';
  const onCost = spec.pinned === 'in' ? buy : !buy;
  if (!s.setUp(venues, spec, caps, shortWalk)) return null;
  let { order, undo } = s;
  let remPinned = spec.amount;
  let step = 0;
  /** Legs under a minimum: while there is none, a step is not kept to be undone (merged-ruled.ts). */
  let unsafe = 0;
  let full = false;
  let dirtyCount = 0;
  let parkedCount = 0;
  let dropOrder: number[] | null = null;
  let settled = false;
  /** The last step not kept to be undone: a rewind to it or before leaves the walk to merged-ruled.ts. */
  let unkept = -1;
  for (;;) {
    // Walk on until the pinned amount is met or no venue can take more.
    full = !settled && remPinned <= 0;
    while (!full && !settled) {
      const v = heap.top();
      if (v < 0) break;
      const venue = venues[v]!;
      const side = venue.levels!;
      const r = venue.rules;
      const fresh = madeAt[v]! < 0;
      if (fresh || unsafe > 0) {
        if (step >= order.length) {
          s.reserve(step);
          ({ order, undo } = s);
        }
        order[step] = v;
        const at = step * UNDO;
        undo[at] = base[v]!;
        undo[at + 1] = cost[v]!;
        undo[at + 2] = steps[v]!;
        undo[at + 3] = level[v]!;
        undo[at + 4] = cumBase[v]!;
        undo[at + 5] = cumCost[v]!;
        undo[at + 6] = remCap[v]!;
        undo[at + 7] = flags[v]!;
        undo[at + 8] = remPinned;
      } else unkept = step;
      if (fresh) madeAt[v] = step;
      let f = flags[v]! & ~7;
      const wasUnsafe = (f & SAFE) === 0;
      // Only a leg under its minimum can fail it: it is checked when the walk stops.
      if (wasUnsafe) {
        if (fresh) unsafe++;
        if (isDirty[v] === 0) {
          isDirty[v] = 1;
          dirty[dirtyCount++] = v;
        }
      }
      // advance (ruled-leg.ts), written out.
      const lv = level[v]!;
      const price = side.price(lv);
      const avail = side.amount(lv);
      const b0 = base[v]!;
      const c0 = cost[v]!;
      const cb = cumBase[v]!;
      const rc = remCap[v]!;
      const up = 1 + venue.fee;
      const pc = onCost ? (buy ? up : 1 - venue.fee) : 0;
      const pb = onCost ? 0 : 1;
      const ic = buy ? up : 0;
      const ib = buy ? 0 : 1;
      const su = r === null ? 0 : r.stepUnits;
      const inside = b0 > cb;
      let y = inside ? cb + avail - b0 : avail;
      let stop = 0;
      let pinned = 0;
      if (su === 0) {
        const byPinned = remPinned / (pc * price + pb);
        if (byPinned <= y) {
          y = byPinned;
          stop = 1;
        }
        const byCap = rc / (ic * price + ib);
        if (byCap < y) {
          y = byCap;
          stop = 2;
        }
        const limit = r === null ? Infinity : r.maxBase;
        const byMax = limit - b0;
        if (byMax < y || (byMax === y && b0 + y > limit)) {
          y = pieceTo(limit, b0);
          stop = 3;
        }
        const b = y > 0 ? y : 0;
        const c = b * price;
        base[v] = b0 + b;
        cost[v] = c0 + c;
        pinned = pc * c + pb * b;
        remCap[v] = rc - (ic * c + ib * b);
      } else {
        const rules = r!;
        const cc = cumCost[v]!;
        const scale = rules.scale;
        const from = inside ? b0 : cb;
        const pendBase = inside ? 0 : cb - b0;
        const pendCost = inside ? 0 : cc - c0;
        // What is left and the funds each stop the take only when their room is within y; a room
        // well beyond it (the product checked, with a margin far above rounding) needs no quotient.
        const pinnedRoom = remPinned - (pc * pendCost + pb * pendBase);
        const pinnedPer = pc * price + pb;
        if (!(y >= 0 && pinnedRoom > y * pinnedPer * CLEAR)) {
          const byPinned = pinnedRoom / pinnedPer;
          if (byPinned <= y) {
            y = byPinned;
            stop = 1;
          }
        }
        const capRoom = rc - (ic * pendCost + ib * pendBase);
        const capPer = ic * price + ib;
        if (!(y >= 0 && capRoom > y * capPer * CLEAR)) {
          const byCap = capRoom / capPer;
          if (byCap < y) {
            y = byCap;
            stop = 2;
          }
        }
        const byMax = rules.maxBase - from;
        if (byMax < y) {
          y = byMax;
          stop = 3;
        }
        // stepsIn, written out (a step of one unit divides by 1, exactly).
        const reach = from + y;
        let k = 0;
        if (reach > 0) {
          const x = su === 1 ? reach * scale : (reach * scale) / su;
          k = Math.floor(x + x * STEP_SLACK);
        }
        if (k > rules.maxSteps) k = rules.maxSteps;
        for (; k > steps[v]!; k--) {
          const at = (k * su) / scale;
          const c = cc + (at - cb) * price;
          const dCost = c - c0;
          const dBase = at - b0;
          const dPinned = pc * dCost + pb * dBase;
          const dInput = ic * dCost + ib * dBase;
          if (stop !== 0) {
            if (dPinned > remPinned + Math.abs(remPinned) * FIT_SLACK) continue;
            if (dInput > rc + Math.abs(rc) * FIT_SLACK) continue;
          }
          steps[v] = k;
          base[v] = at;
          cost[v] = c;
          pinned = dPinned;
          remCap[v] = rc - dInput;
          break;
        }
        if (stop !== 3 && from + y - base[v]! > rules.step * 1e-9) {
          if (stop === 0) stop = 4;
          else f = (f & ~(3 << RULE_SHIFT)) | (RULE_STEP << RULE_SHIFT);
        }
      }
      if (stop === 0 || stop === 4) {
        cumBase[v] = cb + avail;
        cumCost[v] = cumCost[v]! + avail * price;
        level[v] = lv + 1;
        if (lv + 1 >= side.count) f |= DONE;
        else if (remCap[v]! <= 0) f |= CAPPED | DONE;
      } else {
        // Whether a leg stopped by the pinned amount could take one more step (RuledLeg's
        // fitStopped) is asked when the walk is over, and only if it ended short.
        f |= DONE;
        if (stop === 1) {
          if (su === 0) f |= MET;
        } else if (stop === 2) f |= CAPPED;
        else f = (f & ~(3 << RULE_SHIFT)) | (RULE_MAX << RULE_SHIFT);
      }
      if (wasUnsafe && base[v]! >= r!.minAmount && cost[v]! >= r!.minCost) {
        f |= SAFE;
        unsafe--;
      }
      flags[v] = f | stop;
      remPinned -= pinned;
      step++;
      if ((f & MET) !== 0 || remPinned <= 0) {
        full = true;
        break;
      }
      if ((f & DONE) !== 0) heap.pop();
      else {
        const key = side.price(lv + 1) * venue.rankMul;
        if (!(Math.abs(key) < Infinity)) return null;
        keys[v] = key;
        heap.place(v);
      }
      // Stopped short of a whole step by the amount left: that dust may be below one step of many
      // legs, each of which would be reached only to take nothing.
      if (stop === 1 && su > 0 && pinned > 0)
        parkedCount = parkDust(s, venues, spec, remPinned, step, parkedCount);
    }
    // Drop every venue whose leg is not executable, back to the first step that reached one. Only
    // a leg that changed since the last check can newly fail it.
    let to = -1;
    for (let i = 0; i < dirtyCount; i++) {
      const v = dirty[i]!;
      isDirty[v] = 0;
      if (madeAt[v]! < 0 || !(base[v]! > 0) || (flags[v]! & SAFE) !== 0) continue;
      out[v] = base[v]! < venues[v]!.rules!.minAmount ? DROPPED_MIN_AMOUNT : DROPPED_MIN_COST;
      (dropOrder ??= []).push(v);
      if (to < 0 || madeAt[v]! < to) to = madeAt[v]!;
    }
    dirtyCount = 0;
    if (to < 0) break;
    if (unkept >= to) return null;
    for (let at = step - 1; at >= to; at--) {
      const v = order[at]!;
      if (madeAt[v]! >= 0 && (flags[v]! & SAFE) === 0) unsafe--;
      if (madeAt[v] === at) {
        s.clear(v, venues[v]!, caps[v]!);
        continue;
      }
      const u = at * UNDO;
      base[v] = undo[u]!;
      cost[v] = undo[u + 1]!;
      steps[v] = undo[u + 2]!;
      level[v] = undo[u + 3]! | 0;
      cumBase[v] = undo[u + 4]!;
      cumCost[v] = undo[u + 5]!;
      remCap[v] = undo[u + 6]!;
      flags[v] = undo[u + 7]! | 0;
      if ((flags[v] & SAFE) === 0) unsafe++;
    }
    // Venues set aside after step `to` walk again (they were set aside in step order).
    while (parkedCount > 0 && parkedAt[parked[parkedCount - 1]!]! > to) {
      const v = parked[--parkedCount]!;
      parkedAt[v] = -1;
      keys[v] = venues[v]!.levels!.price(level[v]!) * venues[v]!.rankMul;
      heap.place(v);
    }
    // Every venue the rewind touched takes its place in the heap again, or leaves it.
    for (let at = to; at < step; at++) {
      const v = order[at]!;
      if (isDirty[v] !== 0) continue;
      isDirty[v] = 1;
      dirty[dirtyCount++] = v;
      if (out[v] !== 0 || (madeAt[v]! >= 0 && (flags[v]! & DONE) !== 0)) {
        if (heap.has(v)) heap.remove(v);
        continue;
      }
      keys[v] = venues[v]!.levels!.price(level[v]!) * venues[v]!.rankMul;
      heap.place(v);
    }
    remPinned = undo[to * UNDO + 8]!;
    step = to;
    // Legs the rewind put back may now be under a minimum themselves: checked before walking on.
    settled = settles(s, venues, spec, remPinned);
  }
  const legs = leanLegs(s, venues, buy, full, dropOrder !== null);
  const dropped = dropOrder === null ? NONE_DROPPED : droppedLookup(dropOrder, out, venues);
  return { fills: legs.fills, full: legs.full, dropped, short: dropOrder !== null || legs.fitStops };
}
