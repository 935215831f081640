import type { VenueCtx } from './hop-context';
import { baseOfSteps, stepsIn } from './venue-rules';
import { recordingTape, type Fill, type WalkResult, type WalkSpec, type WalkTape } from './walk';

// The rule-aware walks (docs/semantics.md section 13): the walks of walk.ts, except that a venue
// whose market has a step grows its leg only by whole steps, every leg stops at its maxAmount, and
// a venue whose next whole step would overshoot the pinned amount stops while the others go on.
// They run only on hops where some fresh market carries rules (walk.ts is untouched otherwise).

/** What a venue's rules did to its leg: rounded down to a whole step, or cut at maxAmount. */
export type LegRule = 'step' | 'max' | null;

/** A leg of a rule-aware walk. */
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

/** Relative slack within which a whole step counted from a float depth may meet a pinned amount or cap. */
const FIT_SLACK = 1e-12;

/** One venue's progress through its walked side. */
class VenueWalk {
  readonly fill: RuledFill;
  /** The level being walked. */
  level = 0;
  /** Base and raw cost of the levels before `level` (the book's prefix). */
  cumBase = 0;
  cumCost = 0;
  done: boolean;
  /** A venue without a step met the pinned amount: the whole walk is over. */
  met = false;
  lastStop: RuledStop = 0;
  remCap: number;
  /** The leg may not pass this many base units (maxAmount, or a floor while the fill search lays it). */
  limit: number;
  limitSteps: number;

  constructor(
    readonly venue: VenueCtx,
    cap: number,
  ) {
    this.fill = { venue, base: 0, cost: 0, capLimited: false, steps: 0, rule: null, fitStopped: false };
    this.remCap = cap;
    this.limit = venue.rules?.maxBase ?? Infinity;
    this.limitSteps = venue.rules?.maxSteps ?? Infinity;
    const side = venue.levels;
    this.done = side === null || side.count === 0;
    if (!this.done && !(cap > 0)) {
      this.fill.capLimited = true;
      this.done = true;
    }
  }

  /** After the walk: a remainder below one step that the leg never took was left by the step. */
  finish(): RuledFill {
    const f = this.fill;
    if (f.rule === null && this.venue.rules !== null && this.cumBase - f.base > this.venue.rules.step * 1e-9)
      f.rule = 'step';
    return f;
  }
}

/** The pinned side's value of a piece of `base` units costing `cost` raw. */
function pinnedOf(spec: WalkSpec, fee: number, cost: number, base: number): number {
  if (spec.pinned === 'in') return spec.side === 'buy' ? cost * (1 + fee) : base;
  return spec.side === 'buy' ? base : cost * (1 - fee);
}

function inputOf(spec: WalkSpec, fee: number, cost: number, base: number): number {
  return spec.side === 'buy' ? cost * (1 + fee) : base;
}

/** Walk the venue's current level; returns the pinned amount consumed. */
function advance(w: VenueWalk, spec: WalkSpec, remPinned: number, tape: WalkTape | null): number {
  const venue = w.venue;
  const side = venue.levels!;
  const fee = venue.fee;
  const price = side.price(w.level);
  const avail = side.amount(w.level);
  const inPerBase = spec.side === 'buy' ? price * (1 + fee) : 1;
  const pinnedPerBase = spec.pinned === 'in' ? inPerBase : spec.side === 'buy' ? 1 : price * (1 - fee);
  const rules = venue.rules;
  const stepped = rules !== null && rules.stepUnits > 0;
  const fill = w.fill;
  // The leg may end before this level (a remainder under one step waits: it comes along) or, once
  // the fill search laid a floor, inside it (only the rest of the level is left).
  const inside = fill.base > w.cumBase;
  const from = inside ? fill.base : w.cumBase;
  const pendBase = inside ? 0 : w.cumBase - fill.base;
  const pendCost = inside ? 0 : w.cumCost - fill.cost;
  let y = inside ? w.cumBase + avail - fill.base : avail;
  let stop: RuledStop = 0;
  const byPinned = (remPinned - pinnedOf(spec, fee, pendCost, pendBase)) / pinnedPerBase;
  if (byPinned <= y) {
    y = byPinned;
    stop = 1;
  }
  const byCap = (w.remCap - inputOf(spec, fee, pendCost, pendBase)) / inPerBase;
  if (byCap < y) {
    y = byCap;
    stop = 2;
  }
  const byMax = w.limit - from;
  if (byMax < y) {
    y = byMax;
    stop = 3;
  }
  let pinned = 0;
  if (!stepped) {
    // A market without a step walks as walk.ts does: the piece is summed onto the leg.
    const base = Math.max(0, y);
    fill.base += base;
    fill.cost += base * price;
    pinned = pinnedOf(spec, fee, base * price, base);
    w.remCap -= inputOf(spec, fee, base * price, base);
    // Recorded as walk.ts records a take: the piece taken.
    if (tape !== null && base > 0) tape.push(fill, base, stop);
  } else {
    let k = Math.min(stepsIn(from + y, rules.stepUnits, rules.scale), w.limitSteps);
    for (; k > fill.steps; k--) {
      const at = baseOfSteps(rules, k);
      const cost = w.cumCost + (at - w.cumBase) * price;
      const dPinned = pinnedOf(spec, fee, cost - fill.cost, at - fill.base);
      const dInput = inputOf(spec, fee, cost - fill.cost, at - fill.base);
      // The slack that lets a float depth reach a whole step never lets a leg overshoot.
      if (dPinned > remPinned + Math.abs(remPinned) * FIT_SLACK) continue;
      if (dInput > w.remCap + Math.abs(w.remCap) * FIT_SLACK) continue;
      fill.steps = k;
      fill.base = at;
      fill.cost = cost;
      pinned = dPinned;
      w.remCap -= dInput;
      break;
    }
    if (stop !== 3 && from + y - fill.base > rules.step * 1e-9) {
      if (stop === 0) stop = 4;
      else fill.rule = 'step';
    }
    // The proof reads a stepped take as the leg's new amount and the level it ended on (walk-tape.ts).
    if (tape !== null && pinned !== 0) tape.push(fill, fill.base, stop + 8 * w.level);
  }
  w.lastStop = stop;
  if (stop === 0 || stop === 4) {
    w.cumBase += avail;
    w.cumCost += avail * price;
    w.level++;
    if (w.level >= side.count) w.done = true;
    else if (w.remCap <= 0) {
      fill.capLimited = true;
      w.done = true;
    }
    return pinned;
  }
  w.done = true;
  if (stop === 1) {
    if (stepped) fill.fitStopped = couldTakeStep(w, spec, fill.steps + 1);
    else w.met = true;
  } else if (stop === 2) fill.capLimited = true;
  else fill.rule = 'max';
  return pinned;
}

/**
 * Whether the venue's book, funds and maximum allow its leg to reach `steps` whole steps: a venue
 * stopped by the pinned amount with room for one more step leaves only rounding dust.
 */
function couldTakeStep(w: VenueWalk, spec: WalkSpec, steps: number): boolean {
  const rules = w.venue.rules!;
  if (steps > w.limitSteps) return false;
  const side = w.venue.levels!;
  const at = baseOfSteps(rules, steps);
  let cumBase = w.cumBase;
  let cumCost = w.cumCost;
  for (let i = w.level; i < side.count; i++) {
    const amount = side.amount(i);
    const price = side.price(i);
    if (stepsIn(cumBase + amount, rules.stepUnits, rules.scale) >= steps) {
      const cost = cumCost + (at - cumBase) * price;
      const input = inputOf(spec, w.venue.fee, cost - w.fill.cost, at - w.fill.base);
      return input <= w.remCap + Math.abs(w.remCap) * FIT_SLACK;
    }
    cumBase += amount;
    cumCost += amount * price;
  }
  return false;
}

/** A rule-aware walk's result: also whether some venue stopped because its next whole step did not fit. */
export interface RuledWalkResult extends WalkResult {
  readonly fitStops: boolean;
}

/** A rule-aware walk of one venue for the whole pinned amount (best_single, quotes, the fill search). */
export function walkVenueRuled(venue: VenueCtx, spec: WalkSpec, cap: number): WalkResult {
  const tape = recordingTape();
  const w = new VenueWalk(venue, cap);
  let remPinned = spec.amount;
  let full = false;
  while (!w.done) {
    remPinned -= advance(w, spec, remPinned, tape);
    if (w.met || remPinned <= 0) {
      full = true;
      break;
    }
  }
  const fill = w.finish();
  if (fill.steps > 0 && fill.fitStopped) full = true;
  return { fills: fill.base > 0 ? [fill] : [], full };
}

/** Lay a venue's leg up to `floor` base units (the fill search's minimum); returns the pinned amount used. */
function layFloor(w: VenueWalk, spec: WalkSpec, floor: number, tape: WalkTape | null): number {
  const rules = w.venue.rules;
  const { limit, limitSteps } = w;
  w.limit = floor;
  w.limitSteps =
    rules !== null && rules.stepUnits > 0 ? stepsIn(floor, rules.stepUnits, rules.scale) : Infinity;
  let used = 0;
  while (!w.done) used += advance(w, spec, Infinity, tape);
  w.limit = limit;
  w.limitSteps = limitSteps;
  if (w.lastStop === 3) {
    w.done = false;
    w.fill.rule = null;
  }
  return used;
}

/**
 * split_optimal's walk with rules: the levels of `venues` merged by ranking price (ties by venue
 * order, then level order), each venue growing by whole steps. `floors` (the fill search) first
 * lays each venue's leg up to that many base units.
 */
export function walkMergedRuled(
  venues: readonly VenueCtx[],
  spec: WalkSpec,
  caps: readonly number[],
  floors: readonly number[] | null = null,
): RuledWalkResult {
  const tape = recordingTape();
  const n = venues.length;
  const walks = venues.map((v, i) => new VenueWalk(v, caps[i]!));
  let remPinned = spec.amount;
  if (floors !== null)
    for (let v = 0; v < n; v++) if (floors[v]! > 0) remPinned -= layFloor(walks[v]!, spec, floors[v]!, tape);
  const better = spec.side === 'buy' ? -1 : 1;
  const heap: number[] = [];
  const rank = (v: number): number => {
    const w = walks[v]!;
    return w.venue.levels!.price(w.level) * w.venue.rankMul;
  };
  const before = (a: number, b: number): boolean => {
    const d = (rank(a) - rank(b)) * better;
    return d > 0 || (d === 0 && a < b);
  };
  const siftDown = (): void => {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let v = 0; v < n; v++) {
    if (walks[v]!.done) continue;
    heap.push(v);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!before(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  }
  // The floors alone may meet the amount.
  let full = remPinned <= 0;
  while (heap.length > 0 && !full) {
    const w = walks[heap[0]!]!;
    remPinned -= advance(w, spec, remPinned, tape);
    if (w.met || remPinned <= 0) {
      full = true;
      break;
    }
    if (w.done) {
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    }
    siftDown();
  }
  const fills: RuledFill[] = [];
  let fitStops = false;
  for (const w of walks) {
    const fill = w.finish();
    if (fill.fitStopped) fitStops = true;
    if (fill.steps > 0 && fill.fitStopped) full = true;
    if (fill.base > 0) fills.push(fill);
  }
  return { fills, full, fitStops };
}
