import type { VenueCtx } from './hop-context';
import { grownLog } from './merged-workspace';
import { stepsIn } from './order-steps';
import { underMinimum } from './ruled-drops';
import { nothingBelow } from './ruled-leg';
import { VenueHeap } from './venue-heap';
import type { WalkSpec } from './walk';

// The state of merged-lean.ts's walk, kept from one walk to the next, and the two things it does
// near a hop's end as merged-ruled.ts does them: set aside the venues that surely take nothing of
// the dust left, and skip the drops that cannot change a leg.

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
  for (let i = from; i < count; i++) {
    const v = parked[i]!;
    heap.remove(v);
    parkedAt[v] = step;
  }
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
