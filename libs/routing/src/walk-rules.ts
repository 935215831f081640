import type { BookSideView } from '@app/books';
import type { VenueCtx } from './hop-context';
import { stepsIn } from './venue-rules';
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

/**
 * A leg and its walk's progress through the venue's walked side, in one object (a walk makes one
 * per venue). A piece of `b` base costing `c` raw is worth `pc*c + pb*b` on the pinned side and
 * `ic*c + ib*b` in the hop's input asset: the four walks of docs/semantics.md section 4 as numbers.
 */
class RuledLeg implements RuledFill {
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
  done: boolean;
  /** A venue without a step met the pinned amount: the whole walk is over. */
  met = false;
  lastStop: RuledStop = 0;
  /** Pinned amount the last stepped take consumed. */
  lastPinned = 0;
  remCap: number;
  /** The leg may not pass this many base units (maxAmount, or a floor while the fill search lays it). */
  limit: number;
  limitSteps: number;
  readonly pc: number;
  readonly pb: number;
  readonly ic: number;
  readonly ib: number;
  /** The step as m / scale (0 without a step), and a billionth of it. */
  readonly stepUnits: number;
  readonly scale: number;
  readonly stepTol: number;

  constructor(
    readonly venue: VenueCtx,
    spec: WalkSpec,
    cap: number,
  ) {
    const r = venue.rules;
    const buy = spec.side === 'buy';
    const up = 1 + venue.fee;
    this.ic = buy ? up : 0;
    this.ib = buy ? 0 : 1;
    const onCost = spec.pinned === 'in' ? buy : !buy;
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
  }

  /** After the walk: a remainder below one step that the leg never took was left by the step. */
  finish(): this {
    if (this.rule === null && this.stepUnits > 0 && this.cumBase - this.base > this.stepTol)
      this.rule = 'step';
    return this;
  }
}

/** Walk the leg's current level; returns the pinned amount consumed. */
function advance(w: RuledLeg, remPinned: number, tape: WalkTape | null): number {
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
    if (byMax < y) {
      y = byMax;
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
    stop = stepped(w, price, y, remPinned);
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

/** A stepped take at the current level (price, room `y` in it): whole steps only. Returns its stop. */
function stepped(w: RuledLeg, price: number, room: number, remPinned: number): RuledStop {
  const inside = w.base > w.cumBase;
  const from = inside ? w.base : w.cumBase;
  // What the book has beyond the leg but before this level (less than one step) comes along.
  const pendBase = inside ? 0 : w.cumBase - w.base;
  const pendCost = inside ? 0 : w.cumCost - w.cost;
  let y = room;
  let stop: RuledStop = 0;
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
    if (stop === 0) return 4;
    w.rule = 'step';
  }
  return stop;
}

/**
 * Whether the venue's book, funds and maximum allow its leg to reach `steps` whole steps: a venue
 * stopped by the pinned amount with room for one more step leaves only rounding dust.
 */
function couldTakeStep(w: RuledLeg, side: BookSideView, steps: number): boolean {
  if (steps > w.limitSteps) return false;
  const at = (steps * w.stepUnits) / w.scale;
  let cumBase = w.cumBase;
  let cumCost = w.cumCost;
  for (let i = w.level; i < side.count; i++) {
    const amount = side.amount(i);
    const price = side.price(i);
    if (stepsIn(cumBase + amount, w.stepUnits, w.scale) >= steps) {
      const cost = cumCost + (at - cumBase) * price;
      const input = w.ic * (cost - w.cost) + w.ib * (at - w.base);
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

/** Lay a venue's leg up to `floor` base units (the fill search's minimum); returns the pinned amount used. */
function layFloor(w: RuledLeg, floor: number, tape: WalkTape | null): number {
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
  // A venue's leg is made when the walk first reaches it: most venues of a wide hop never are.
  const legs: (RuledLeg | undefined)[] = new Array<RuledLeg | undefined>(n);
  let remPinned = spec.amount;
  if (floors !== null)
    for (let v = 0; v < n; v++) {
      if (!(floors[v]! > 0)) continue;
      const w = new RuledLeg(venues[v]!, spec, caps[v]!);
      legs[v] = w;
      if (!w.done) remPinned -= layFloor(w, floors[v]!, tape);
    }
  const better = spec.side === 'buy' ? -1 : 1;
  // Binary heap of venue indices keyed by the ranking price of each venue's current level.
  const keys = new Float64Array(n);
  const heap: number[] = [];
  const before = (a: number, b: number): boolean => {
    const d = (keys[a]! - keys[b]!) * better;
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
      const t = heap[i]!;
      heap[i] = heap[m]!;
      heap[m] = t;
      i = m;
    }
  };
  for (let v = 0; v < n; v++) {
    const venue = venues[v]!;
    const side = venue.levels;
    const w = legs[v];
    if (w === undefined ? side === null || side.count === 0 || !(caps[v]! > 0) : w.done) continue;
    keys[v] = side!.price(w?.level ?? 0) * venue.rankMul;
    heap.push(v);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!before(heap[i]!, heap[p]!)) break;
      const t = heap[i]!;
      heap[i] = heap[p]!;
      heap[p] = t;
      i = p;
    }
  }
  // The floors alone may meet the amount.
  let full = remPinned <= 0;
  while (heap.length > 0 && !full) {
    const v = heap[0]!;
    let w = legs[v];
    if (w === undefined) legs[v] = w = new RuledLeg(venues[v]!, spec, caps[v]!);
    remPinned -= advance(w, remPinned, tape);
    if (w.met || remPinned <= 0) {
      full = true;
      break;
    }
    if (w.done) {
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    } else keys[v] = w.venue.levels!.price(w.level) * w.venue.rankMul;
    siftDown();
  }
  const fills: RuledFill[] = [];
  let fitStops = false;
  for (const w of legs) {
    if (w === undefined) continue;
    w.finish();
    if (w.fitStopped) fitStops = true;
    if (w.steps > 0 && w.fitStopped) full = true;
    if (w.base > 0) fills.push(w);
  }
  return { fills, full, fitStops };
}
