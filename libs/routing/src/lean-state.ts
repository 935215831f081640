import type { VenueCtx } from './hop-context';
import { grownLog } from './merged-workspace';
import { stepsIn } from './order-steps';
import { underMinimum } from './ruled-drops';
import { nothingBelow, stepFits, type RuledFill } from './ruled-leg';
import { ruledLeg } from './walk-rules';
import { VenueHeap } from './venue-heap';
import type { WalkSpec } from './walk';

// The state of merged-lean.ts's walk, kept from one walk to the next; its setting up and its legs
// at the end; and the two things it does near a hop's end as merged-ruled.ts does them: set aside
// the venues that surely take nothing of the dust left, and skip the drops that cannot change a leg.

/** A leg's `rule`, as a number. */
export const RULE_STEP = 1;
export const RULE_MAX = 2;

/** Flags of a leg in one number (its last stop is the low three bits). */
export const DONE = 8;
export const MET = 16;
export const CAPPED = 32;
/** The leg is at or above its minimum amount and cost: it only grows, so it stays there until a rewind. */
export const SAFE = 64;
export const RULE_SHIFT = 7;

/** Numbers the undo record keeps per step: the stepped leg's state before it, and the amount left. */
export const UNDO = 9;

/** The lean walk's arrays, grown to the most venues seen and kept from one walk to the next. */
export class LeanState {
  readonly base: Float64Array;
  readonly cost: Float64Array;
  readonly steps: Float64Array;
  readonly cumBase: Float64Array;
  readonly cumCost: Float64Array;
  readonly remCap: Float64Array;
  /** Ranking key of each venue's current level. */
  readonly keys: Float64Array;
  readonly level: Int32Array;
  /** The step that made each venue's leg; -1 none yet. */
  readonly madeAt: Int32Array;
  /** lastStop (0-4) | DONE | MET | CAPPED | SAFE | rule << RULE_SHIFT. */
  readonly flags: Int32Array;
  /** Why each venue was dropped: 0 it was not, else a DROPPED_ code. */
  readonly out: Uint8Array;
  /** Venues whose leg changed since the last drop check, and whether each is among them. */
  readonly dirty: Int32Array;
  readonly isDirty: Uint8Array;
  /** Venues set aside (`parkDust`), in the order they were, and the steps taken when each was (-1: it is not). */
  readonly parked: Int32Array;
  readonly parkedAt: Int32Array;
  readonly heap: VenueHeap;
  order: Int32Array = new Int32Array(64);
  undo: Float64Array = new Float64Array(64 * UNDO);

  constructor(readonly capacity: number) {
    this.base = new Float64Array(capacity);
    this.cost = new Float64Array(capacity);
    this.steps = new Float64Array(capacity);
    this.cumBase = new Float64Array(capacity);
    this.cumCost = new Float64Array(capacity);
    this.remCap = new Float64Array(capacity);
    this.keys = new Float64Array(capacity);
    this.level = new Int32Array(capacity);
    this.madeAt = new Int32Array(capacity);
    this.flags = new Int32Array(capacity);
    this.out = new Uint8Array(capacity);
    this.dirty = new Int32Array(capacity);
    this.isDirty = new Uint8Array(capacity);
    this.parked = new Int32Array(capacity);
    this.parkedAt = new Int32Array(capacity);
    this.heap = new VenueHeap(capacity);
  }

  /** Room for `steps` steps in the undo record. */
  reserve(steps: number): void {
    if (steps < this.order.length) return;
    ({ order: this.order, undo: this.undo } = grownLog(this.order, this.undo, UNDO, steps));
  }

  /**
   * Every venue before the walk over `venues`, each usable one in the heap by its first level's
   * ranking price; false, for merged-ruled.ts to walk instead, when the amount is at most
   * `shortWalk` times what one venue's first level holds or a ranking price is not finite.
   */
  setUp(venues: readonly VenueCtx[], spec: WalkSpec, caps: readonly number[], shortWalk: number): boolean {
    const { keys, heap } = this;
    const n = venues.length;
    const buy = spec.side === 'buy';
    const onCost = spec.pinned === 'in' ? buy : !buy;
    heap.clear(n, keys, buy ? -1 : 1);
    for (let v = 0; v < n; v++) {
      const venue = venues[v]!;
      const side = venue.levels;
      const usable = side !== null && side.count > 0 && caps[v]! > 0;
      // An amount within a few first levels ends the walk within a few steps, and merged-ruled.ts
      // passes by the venues it does not reach, which the lean walk would set up and reach.
      const p0 = usable ? side.price(0) : 0;
      if (
        usable &&
        side.amount(0) * (onCost ? p0 * (buy ? 1 + venue.fee : 1 - venue.fee) : 1) * shortWalk >= spec.amount
      )
        return false;
      this.clear(v, venue, caps[v]!);
      this.out[v] = 0;
      this.isDirty[v] = 0;
      this.parkedAt[v] = -1;
      if (!usable) continue;
      const key = p0 * venue.rankMul;
      if (!(Math.abs(key) < Infinity)) return false;
      keys[v] = key;
      heap.place(v);
    }
    return true;
  }

  /** Venue `v`'s leg as before the walk, with `cap` to spend. */
  clear(v: number, venue: VenueCtx, cap: number): void {
    this.base[v] = 0;
    this.cost[v] = 0;
    this.steps[v] = 0;
    this.cumBase[v] = 0;
    this.cumCost[v] = 0;
    this.remCap[v] = cap;
    this.level[v] = 0;
    this.madeAt[v] = -1;
    const r = venue.rules;
    this.flags[v] = r === null || (r.minAmount <= 0 && r.minCost <= 0) ? SAFE : 0;
  }
}

/**
 * Set aside every venue in the heap (a leg walking, or one not yet begun) that surely stops on the
 * pinned amount, taking nothing, when reached with `left` or less: its next whole step is beyond
 * what is left, and its funds and maximum cannot stop it first. Reaching it would change nothing
 * but its own stop, so the walk's other steps are the same without it (parked-legs.ts does this
 * for merged-ruled.ts). Returns the new count of venues set aside.
 */
export function parkDust(
  s: LeanState,
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  left: number,
  step: number,
  count: number,
): number {
  const { heap, base, cost, cumBase, cumCost, remCap, level, parked, parkedAt } = s;
  const buy = spec.side === 'buy';
  const onCost = spec.pinned === 'in' ? buy : !buy;
  const from = count;
  for (let i = 0; i < heap.size; i++) {
    const v = heap.at(i);
    const venue = venues[v]!;
    const r = venue.rules;
    const cb = cumBase[v]!;
    const b0 = base[v]!;
    if (r === null || r.stepUnits === 0 || b0 > cb) continue;
    const up = 1 + venue.fee;
    const pc = onCost ? (buy ? up : 1 - venue.fee) : 0;
    const pb = onCost ? 0 : 1;
    const ic = buy ? up : 0;
    const ib = buy ? 0 : 1;
    const side = venue.levels!;
    const lv = level[v]!;
    const price = side.price(lv);
    const pendBase = cb - b0;
    const pendCost = cumCost[v]! - cost[v]!;
    const byPinned = (left - (pc * pendCost + pb * pendBase)) / (pc * price + pb);
    if (!(byPinned <= side.amount(lv)) || stepsIn(cb + byPinned, r.stepUnits, r.scale) > s.steps[v]!)
      continue;
    const byCap = (remCap[v]! - (ic * pendCost + ib * pendBase)) / (ic * price + ib);
    if (!(byCap >= byPinned) || !(r.maxBase - cb >= byPinned)) continue;
    parked[count++] = v;
  }
  heap.removeMany(parked, from, count);
  for (let i = from; i < count; i++) parkedAt[parked[i]!] = step;
  return count;
}

/**
 * Whether the drops left to come can be skipped (merged-ruled.ts's `settles`): with no leg in the
 * heap, every venue not yet begun that could take something of `left` would take less than its
 * minimum, so each would be dropped in turn and the walk would end where it stands, unfilled.
 */
export function settles(s: LeanState, venues: readonly VenueCtx[], spec: WalkSpec, left: number): boolean {
  const heap = s.heap;
  for (let i = 0; i < heap.size; i++) {
    const v = heap.at(i);
    if (s.madeAt[v]! >= 0) return false;
    const venue = venues[v]!;
    if (nothingBelow(venue, spec, venue.levels!.price(0)) >= left) continue;
    if (!underMinimum(venue, spec, left)) return false;
  }
  return true;
}

/**
 * The legs of a lean walk that has ended (`met`: on the pinned amount), in venue order, and what
 * they tell of it: full when it met the amount or a leg that took steps stopped with room for one
 * more (`dropped`: some venue was dropped, which leaves the venues that took no step unasked).
 */
export function leanLegs(
  s: LeanState,
  venues: readonly VenueCtx[],
  buy: boolean,
  met: boolean,
  dropped: boolean,
): { fills: RuledFill[]; full: boolean; fitStops: boolean } {
  const { base, cost, steps, cumBase, cumCost, remCap, level, madeAt, flags, parkedAt } = s;
  const n = venues.length;
  let full = met;
  let fitStops = false;
  const fills: RuledFill[] = [];
  for (let v = 0; v < n; v++) {
    const setAside = parkedAt[v]! >= 0;
    if (madeAt[v]! < 0 && !setAside) continue;
    const venue = venues[v]!;
    const r = venue.rules;
    // A venue set aside is reached before a walk that ends short does, and stops on the pinned amount.
    const f = setAside ? (flags[v]! & ~7) | 1 : flags[v]!;
    // Whether it stopped with room for one more step: read only when the walk ended short, for
    // the legs that took steps and, when no venue was dropped, for every venue reached. Of a venue
    // that took no step it tells only whether some venue stopped so, which one already has; once a
    // leg that took steps has, the walk is full and no leg's answer is read.
    let fit = false;
    if (
      !full &&
      (f & 7) === 1 &&
      r !== null &&
      r.stepUnits > 0 &&
      (steps[v]! > 0 || (!dropped && !fitStops))
    ) {
      const buy1 = buy ? 1 + venue.fee : 0;
      fit =
        steps[v]! + 1 <= r.maxSteps &&
        stepFits(
          venue.levels!,
          steps[v]! + 1,
          r,
          buy1,
          buy ? 0 : 1,
          level[v]!,
          cumBase[v]!,
          cumCost[v]!,
          cost[v]!,
          base[v]!,
          remCap[v]!,
        );
    }
    if (fit) {
      fitStops = true;
      if (steps[v]! > 0) full = true;
    }
    if (!(base[v]! > 0)) continue;
    let rule = f >> RULE_SHIFT;
    // A remainder below one step that the leg never took was left by the step (RuledLeg.finish).
    if (rule === 0 && r !== null && r.stepUnits > 0 && cumBase[v]! - base[v]! > r.step * 1e-9)
      rule = RULE_STEP;
    const shapedBy = rule === RULE_STEP ? 'step' : rule === RULE_MAX ? 'max' : null;
    fills.push(ruledLeg(venue, base[v]!, cost[v]!, (f & CAPPED) !== 0, steps[v]!, shapedBy, fit));
  }
  return { fills, full, fitStops };
}
