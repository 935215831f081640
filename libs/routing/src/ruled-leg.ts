import type { BookSideView } from '@app/books';
import type { VenueCtx } from './hop-context';
import { pieceTo, stepsIn } from './order-steps';
import type { Fill, WalkSpec, WalkTape } from './walk';

// A leg of the rule-aware walks (docs/semantics.md section 13) and its step through one level:
// a venue whose market has a step grows its leg only by whole steps, every leg stops at its
// maxAmount, and a venue whose next whole step would overshoot the pinned amount stops while the
// others go on. The walks themselves are in walk-rules.ts (one venue) and merged-ruled.ts.

/** What a venue's rules did to its leg: rounded down to a whole step, or cut at maxAmount. */
export type LegRule = 'step' | 'max' | null;

/**
 * A leg of a rule-aware walk. `rule` and `fitStopped` are read only by proofs and by a merged walk
 * that ended short: a merged walk that met its amount without recording a proof leaves a leg it
 * set aside (parked-legs.ts) as it was before its last turn, which took nothing.
 */
export interface RuledFill extends Fill {
  /** Whole steps in the leg; 0 on a market without a step. */
  steps: number;
  rule: LegRule;
  /** The venue stopped because its next whole step would overshoot the pinned amount left. */
  fitStopped: boolean;
}

export function isRuledFill(fill: Fill): fill is RuledFill {
  return 'steps' in fill;
}

/**
 * Why a rule-aware take stopped: 0 the level ran out, 1 the pinned amount, 2 the cap, 3 the
 * maximum (or a floor of the fill search), 4 the level ran out but its rest waits for a whole step.
 */
export type RuledStop = 0 | 1 | 2 | 3 | 4;

/** Numbers `RuledLeg.save` writes per leg. */
export const LEG_SLOTS = 9;

/** A ruled fill's own fields, writable: what a walk reuses an object for. */
type ClearableFill = { -readonly [K in keyof RuledFill]: RuledFill[K] };

/** `fill` as before any walk, on `venue`: no leg, no stop, no rule. */
export function clearFill(fill: ClearableFill, venue: VenueCtx): void {
  fill.venue = venue;
  fill.base = 0;
  fill.cost = 0;
  fill.capLimited = false;
  fill.steps = 0;
  fill.rule = null;
  fill.fitStopped = false;
}

/** Relative slack within which a whole step counted from a float depth may meet a pinned amount or cap. */
export const FIT_SLACK = 1e-12;

/**
 * A leg and its walk's progress through the venue's walked side, in one object (a walk makes one
 * per venue). A piece of `b` base costing `c` raw is worth `pc*c + pb*b` on the pinned side and
 * `ic*c + ib*b` in the hop's input asset: the four walks of docs/semantics.md section 4 as numbers.
 */
export class RuledLeg implements RuledFill {
  venue!: VenueCtx;
  base = 0;
  cost = 0;
  capLimited = false;
  steps = 0;
  rule: LegRule = null;
  fitStopped = false;
  /** The level being walked. */
  level = 0;
  /** Base and raw cost of the levels before `level` (the book's prefix). */
  cumBase = 0;
  cumCost = 0;
  done = false;
  /** A venue without a step met the pinned amount: the whole walk is over. */
  met = false;
  lastStop: RuledStop = 0;
  /** Pinned amount the last stepped take consumed. */
  lastPinned = 0;
  remCap = 0;
  /** The leg may not pass this many base units (maxAmount, or a floor while the fill search lays it). */
  limit = Infinity;
  limitSteps = Infinity;
  pc = 0;
  pb = 0;
  ic = 0;
  ib = 0;
  /** The step as m / scale (0 without a step), and a billionth of it. */
  stepUnits = 0;
  scale = 1;
  stepTol = 0;

  constructor(venue: VenueCtx, spec: WalkSpec, cap: number) {
    this.begin(venue, spec, cap);
  }

  /**
   * A leg not yet begun on `venue`, with `cap` to spend: what the constructor makes, and how the
   * merged walk remakes a leg object it unmade (for the same venue or another).
   */
  begin(venue: VenueCtx, spec: WalkSpec, cap: number): this {
    const r = venue.rules;
    const buy = spec.side === 'buy';
    const up = 1 + venue.fee;
    const onCost = spec.pinned === 'in' ? buy : !buy;
    clearFill(this, venue);
    this.level = 0;
    this.cumBase = 0;
    this.cumCost = 0;
    this.met = false;
    this.lastStop = 0;
    this.lastPinned = 0;
    this.ic = buy ? up : 0;
    this.ib = buy ? 0 : 1;
    this.pc = onCost ? (buy ? up : 1 - venue.fee) : 0;
    this.pb = onCost ? 0 : 1;
    this.stepUnits = r?.stepUnits ?? 0;
    this.scale = r?.scale ?? 1;
    this.stepTol = (r?.step ?? 0) * 1e-9;
    this.remCap = cap;
    this.limit = r?.maxBase ?? Infinity;
    this.limitSteps = r?.maxSteps ?? Infinity;
    const side = venue.levels;
    this.done = side === null || side.count === 0;
    if (!this.done && !(cap > 0)) {
      this.capLimited = true;
      this.done = true;
    }
    return this;
  }

  /** Write the walk state of this leg at `buf[at..at+LEG_SLOTS)`, for `restore` (merged-ruled.ts rewinds). */
  save(buf: Float64Array, at: number): void {
    buf[at] = this.base;
    buf[at + 1] = this.cost;
    buf[at + 2] = this.steps;
    buf[at + 3] = this.level;
    buf[at + 4] = this.cumBase;
    buf[at + 5] = this.cumCost;
    buf[at + 6] = this.remCap;
    buf[at + 7] = this.lastPinned;
    buf[at + 8] =
      this.lastStop |
      (this.rule === null ? 0 : this.rule === 'step' ? 8 : 16) |
      (this.done ? 32 : 0) |
      (this.met ? 64 : 0) |
      (this.capLimited ? 128 : 0) |
      (this.fitStopped ? 256 : 0);
  }

  /** Put back the walk state `save` wrote. */
  restore(buf: Float64Array, at: number): void {
    this.base = buf[at]!;
    this.cost = buf[at + 1]!;
    this.steps = buf[at + 2]!;
    // A whole number read back from a Float64Array. `| 0` keeps the field a small integer: stored
    // as a double, V8 widens the field in every leg, and each book's price(level) takes a double.
    this.level = buf[at + 3]! | 0;
    this.cumBase = buf[at + 4]!;
    this.cumCost = buf[at + 5]!;
    this.remCap = buf[at + 6]!;
    this.lastPinned = buf[at + 7]!;
    const flags = buf[at + 8]!;
    this.lastStop = (flags & 7) as RuledStop;
    this.rule = flags & 8 ? 'step' : flags & 16 ? 'max' : null;
    this.done = (flags & 32) !== 0;
    this.met = (flags & 64) !== 0;
    this.capLimited = (flags & 128) !== 0;
    this.fitStopped = (flags & 256) !== 0;
  }

  /** After the walk: a remainder below one step that the leg never took was left by the step. */
  finish(): this {
    if (this.rule === null && this.stepUnits > 0 && this.cumBase - this.base > this.stepTol)
      this.rule = 'step';
    return this;
  }
}

/** How far below one step's pinned value a fresh leg's pinned amount left must be to be sure it takes nothing. */
const NOTHING_MARGIN = 1e-9;

/**
 * A pinned amount left below which a leg not yet begun on `venue` surely takes nothing and stops
 * (the merged walk passes such venues by): its first level holds a whole step and the amount left
 * would not pay for one. -Infinity when there is no such bound (no step, or a first level smaller
 * than one step), so the venue is walked. The caller has checked that the venue's walked side has a
 * level and read its price, `price0`.
 */
export function nothingBelow(venue: VenueCtx, spec: WalkSpec, price0: number): number {
  const r = venue.rules;
  if (r === null || r.stepUnits === 0) return -Infinity;
  if (!(venue.levels!.amount(0) >= r.step * (1 + NOTHING_MARGIN))) return -Infinity;
  const buy = spec.side === 'buy';
  const onCost = spec.pinned === 'in' ? buy : !buy;
  const pc = onCost ? (buy ? 1 + venue.fee : 1 - venue.fee) : 0;
  const pb = onCost ? 0 : 1;
  return r.step * (pc * price0 + pb) * (1 - NOTHING_MARGIN);
}

/**
 * Whether `advance(w, left)` would take nothing and end the leg, and so would any smaller amount
 * left: on a market with a step, the pinned amount bounds the take within the current level and
 * falls short of one more whole step. The same operations as `advance`, whose results only grow
 * with the amount left, so the answer holds for every smaller amount too.
 */
export function takesNothing(w: RuledLeg, left: number): boolean {
  if (w.stepUnits === 0 || w.base > w.cumBase) return false;
  const side = w.venue.levels!;
  const pendBase = w.cumBase - w.base;
  const pendCost = w.cumCost - w.cost;
  const byPinned = (left - (w.pc * pendCost + w.pb * pendBase)) / (w.pc * side.price(w.level) + w.pb);
  return byPinned <= side.amount(w.level) && stepsIn(w.cumBase + byPinned, w.stepUnits, w.scale) <= w.steps;
}

/** Walk the leg's current level; returns the pinned amount consumed. */
export function advance(w: RuledLeg, remPinned: number, tape: WalkTape | null): number {
  const side = w.venue.levels!;
  const price = side.price(w.level);
  const avail = side.amount(w.level);
  // Inside a level only after the fill search laid a floor there: then only its rest is left.
  const inside = w.base > w.cumBase;
  let y = inside ? w.cumBase + avail - w.base : avail;
  let stop: RuledStop = 0;
  let pinned: number;
  if (w.stepUnits === 0) {
    // A market without a step walks as walk.ts does: the piece is summed onto the leg.
    const byPinned = remPinned / (w.pc * price + w.pb);
    if (byPinned <= y) {
      y = byPinned;
      stop = 1;
    }
    const byCap = w.remCap / (w.ic * price + w.ib);
    if (byCap < y) {
      y = byCap;
      stop = 2;
    }
    const byMax = w.limit - w.base;
    // A level of exactly the rounded room left would also pass the maximum: cut it there too.
    if (byMax < y || (byMax === y && w.base + y > w.limit)) {
      y = pieceTo(w.limit, w.base);
      stop = 3;
    }
    const base = y > 0 ? y : 0;
    const cost = base * price;
    w.base += base;
    w.cost += cost;
    pinned = w.pc * cost + w.pb * base;
    w.remCap -= w.ic * cost + w.ib * base;
    // Recorded as walk.ts records a take: the piece taken.
    if (tape !== null && base > 0) tape.push(w, base, stop);
  } else {
    // A stepped take at this level (room `y` in it): whole steps only. Written out here rather
    // than called: every step of a walk over markets with a step comes this way.
    const from = inside ? w.base : w.cumBase;
    // What the book has beyond the leg but before this level (less than one step) comes along.
    const pendBase = inside ? 0 : w.cumBase - w.base;
    const pendCost = inside ? 0 : w.cumCost - w.cost;
    const byPinned = (remPinned - (w.pc * pendCost + w.pb * pendBase)) / (w.pc * price + w.pb);
    if (byPinned <= y) {
      y = byPinned;
      stop = 1;
    }
    const byCap = (w.remCap - (w.ic * pendCost + w.ib * pendBase)) / (w.ic * price + w.ib);
    if (byCap < y) {
      y = byCap;
      stop = 2;
    }
    const byMax = w.limit - from;
    if (byMax < y) {
      y = byMax;
      stop = 3;
    }
    w.lastPinned = 0;
    let k = stepsIn(from + y, w.stepUnits, w.scale);
    if (k > w.limitSteps) k = w.limitSteps;
    for (; k > w.steps; k--) {
      const at = (k * w.stepUnits) / w.scale;
      const cost = w.cumCost + (at - w.cumBase) * price;
      const dCost = cost - w.cost;
      const dBase = at - w.base;
      const dPinned = w.pc * dCost + w.pb * dBase;
      const dInput = w.ic * dCost + w.ib * dBase;
      // The level bounded the take: nothing to overshoot. Otherwise the slack that lets a float
      // depth reach a whole step never lets a leg overshoot the pinned amount or its funds.
      if (stop !== 0) {
        if (dPinned > remPinned + Math.abs(remPinned) * FIT_SLACK) continue;
        if (dInput > w.remCap + Math.abs(w.remCap) * FIT_SLACK) continue;
      }
      w.steps = k;
      w.base = at;
      w.cost = cost;
      w.lastPinned = dPinned;
      w.remCap -= dInput;
      break;
    }
    if (stop !== 3 && from + y - w.base > w.stepTol) {
      if (stop === 0) stop = 4;
      else w.rule = 'step';
    }
    pinned = w.lastPinned;
    // The proof reads a stepped take as the leg's new amount and the level it ended on (walk-tape.ts).
    if (tape !== null && pinned !== 0) tape.push(w, w.base, stop + 8 * w.level);
  }
  w.lastStop = stop;
  if (stop === 0 || stop === 4) {
    w.cumBase += avail;
    w.cumCost += avail * price;
    w.level++;
    if (w.level >= side.count) w.done = true;
    else if (w.remCap <= 0) {
      w.capLimited = true;
      w.done = true;
    }
    return pinned;
  }
  w.done = true;
  if (stop === 1) {
    if (w.stepUnits > 0) w.fitStopped = couldTakeStep(w, side, w.steps + 1);
    else w.met = true;
  } else if (stop === 2) w.capLimited = true;
  else w.rule = 'max';
  return pinned;
}

/**
 * Whether the venue's book, funds and maximum allow its leg to reach `steps` whole steps: a venue
 * stopped by the pinned amount with room for one more step leaves only rounding dust.
 */
export function couldTakeStep(w: RuledLeg, side: BookSideView, steps: number): boolean {
  if (steps > w.limitSteps) return false;
  return stepFits(side, steps, w, w.ic, w.ib, w.level, w.cumBase, w.cumCost, w.cost, w.base, w.remCap);
}

/**
 * `couldTakeStep` for a leg of `step` (stepUnits / scale) at `level`, with that level's prefix
 * (`cumBase`, `cumCost`), its amount and cost, and `remCap` left to spend; the caller has checked
 * the maximum.
 */
export function stepFits(
  side: BookSideView,
  steps: number,
  step: { readonly stepUnits: number; readonly scale: number },
  ic: number,
  ib: number,
  level: number,
  cumBase: number,
  cumCost: number,
  legCost: number,
  legBase: number,
  remCap: number,
): boolean {
  const { stepUnits, scale } = step;
  const at = (steps * stepUnits) / scale;
  for (let i = level; i < side.count; i++) {
    const amount = side.amount(i);
    const price = side.price(i);
    if (stepsIn(cumBase + amount, stepUnits, scale) >= steps) {
      const cost = cumCost + (at - cumBase) * price;
      const input = ic * (cost - legCost) + ib * (at - legBase);
      return input <= remCap + Math.abs(remCap) * FIT_SLACK;
    }
    cumBase += amount;
    cumCost += amount * price;
  }
  return false;
}

/** Lay a venue's leg up to `floor` base units (the fill search's minimum); returns the pinned amount used. */
export function layFloor(w: RuledLeg, floor: number, tape: WalkTape | null): number {
  const { limit, limitSteps } = w;
  w.limit = floor;
  w.limitSteps = w.stepUnits > 0 ? stepsIn(floor, w.stepUnits, w.scale) : Infinity;
  let used = 0;
  while (!w.done) used += advance(w, Infinity, tape);
  w.limit = limit;
  w.limitSteps = limitSteps;
  if (w.lastStop === 3) {
    w.done = false;
    w.rule = null;
  }
  return used;
}
