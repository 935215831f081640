import { FirstBelow } from './first-below';
import type { VenueCtx } from './hop-context';
import { advance, LEG_SLOTS, nothingBelow, RuledLeg, type RuledFill } from './ruled-leg';
import { stepsIn } from './venue-rules';
import {
  recordingTape,
  type DropLookup,
  type DropReason,
  type WalkResult,
  type WalkSpec,
  type WalkTape,
} from './walk';

// split_optimal's walk with rules (docs/semantics.md section 13): the levels of the hop's venues
// merged by ranking price (ties by venue order, then level order), each venue growing by whole
// steps. A leg under its venue's minimum drops that venue and the walk runs again without it
// (strategies-rules.ts). Two things keep that cheap without changing a leg:
// - A walk run again from the start repeats every step it took before it first reached a dropped
//   venue. So the walk keeps, per step, what the step changed, and a drop rewinds to the first
//   step that reached a dropped venue and goes on from there.
// - Near the end of a hop, what is left of the pinned amount is often less than one step on most
//   venues, and each of them, reached in turn, takes nothing and stops. Venues not yet reached
//   wait in ranking order with the amount below which they surely take nothing (nothingBelow);
//   the walk goes from one that might take to the next in O(log n) and never makes a leg for
//   the others. Those take no part in the legs, the amount left or the tape: only whether one of
//   them stopped for a whole step (fitStops) needs them, and a plain walk answers that.

/** A rule-aware walk's result. */
export type RuledWalkResult = WalkResult;

/** A walk that dropped nothing. */
const NONE_DROPPED: DropLookup = { get: () => undefined };

/** Why a venue was dropped (its `out` code; 0 = walking). */
const DROPPED_MIN_AMOUNT = 1;
const DROPPED_MIN_COST = 2;

/** Numbers kept per step: the advanced leg's state before it, the amount left, the tape's length, the next untouched venue. */
const SLOTS = LEG_SLOTS + 3;

/** The arrays of a merged walk over up to `capacity` venues, kept from one walk to the next. */
class Workspace {
  readonly legs: (RuledLeg | undefined)[];
  /** Legs a rewind unmade, kept to be made again: a walk makes the same venue's leg over and over. */
  readonly spare: (RuledLeg | undefined)[];
  readonly madeAt: Int32Array;
  readonly out: Uint8Array;
  readonly keys: Float64Array;
  readonly firstKeys: Float64Array;
  readonly byRank: Int32Array;
  readonly rank: Int32Array;
  readonly nothing: Float64Array;
  readonly waiting: FirstBelow;
  readonly heap: Int32Array;
  readonly pos: Int32Array;
  readonly dirty: Int32Array;
  readonly isDirty: Uint8Array;
  readonly scratch: Int32Array;
  readonly droppedOrder: Int32Array;
  order = new Int32Array(64);
  undo = new Float64Array(64 * SLOTS);

  constructor(readonly capacity: number) {
    this.legs = new Array<RuledLeg | undefined>(capacity);
    this.spare = new Array<RuledLeg | undefined>(capacity);
    this.madeAt = new Int32Array(capacity);
    this.out = new Uint8Array(capacity);
    this.keys = new Float64Array(capacity);
    this.firstKeys = new Float64Array(capacity);
    this.byRank = new Int32Array(capacity);
    this.rank = new Int32Array(capacity);
    this.nothing = new Float64Array(capacity);
    this.waiting = new FirstBelow(capacity);
    this.heap = new Int32Array(capacity);
    this.pos = new Int32Array(capacity);
    this.dirty = new Int32Array(capacity);
    this.isDirty = new Uint8Array(capacity);
    this.scratch = new Int32Array(capacity);
    this.droppedOrder = new Int32Array(capacity);
  }

  /** Ready for a walk over `n` venues. */
  clear(n: number): this {
    this.legs.fill(undefined, 0, n);
    this.spare.fill(undefined, 0, n);
    this.madeAt.fill(-1, 0, n);
    this.out.fill(0, 0, n);
    this.rank.fill(-1, 0, n);
    this.pos.fill(-1, 0, n);
    this.isDirty.fill(0, 0, n);
    return this;
  }

  grow(): void {
    const order = new Int32Array(this.order.length * 2);
    order.set(this.order);
    const undo = new Float64Array(order.length * SLOTS);
    undo.set(this.undo);
    this.order = order;
    this.undo = undo;
  }
}

/** The workspace of the last walk that finished: a solve walks many hops one after another. */
let kept: Workspace | null = null;

function workspace(n: number): Workspace {
  const ws = kept !== null && kept.capacity >= n ? kept : new Workspace(Math.max(n, 64));
  if (ws === kept) kept = null;
  return ws.clear(n);
}

/** Options of a merged walk. */
export interface MergedWalkOptions {
  /** The fill search's floors: each venue's leg first laid up to that many base units; such a walk does not drop. */
  readonly floors?: readonly number[] | null;
  /** Walk every venue reached, as a plain walk does, even one that surely takes nothing. */
  readonly visitAll?: boolean;
}

/** A merged rule-aware walk over `venues` (in exchangeId order) that can drop venues and go on. */
export class MergedRuledWalk {
  private readonly n: number;
  private ws: Workspace | null;
  private readonly legs: (RuledLeg | undefined)[];
  private readonly spare: (RuledLeg | undefined)[];
  /** The step at which each venue's leg was made: -1 none yet, -2 before the walk (a floor). */
  private readonly madeAt: Int32Array;
  /** Why each venue was dropped: 0 it was not, else a DROPPED_ code. */
  private readonly out: Uint8Array;
  /** Ranking key of each venue's current level (its first while it has no leg). */
  private readonly keys: Float64Array;
  private readonly firstKeys: Float64Array;
  /** Venues with no leg yet that could walk, in walk order (`waitingCount` of them), and each one's place in it (-1 none). */
  private readonly byRank: Int32Array;
  private readonly rank: Int32Array;
  private waitingCount = 0;
  /** Per place in that order: the amount left below which the venue surely takes nothing. */
  private readonly waiting: FirstBelow;
  private readonly nothing: Float64Array;
  /** The next place in that order the walk has not passed. */
  private next = 0;
  /** Binary heap of the venues with a leg still walking, and each one's place in it (-1 none). */
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private size = 0;
  /** Venues whose leg changed since the last drop check. */
  private readonly dirty: Int32Array;
  private readonly isDirty: Uint8Array;
  private dirtyCount = 0;
  /** Venues dropped (`out` says why), in the order they were. */
  private readonly droppedOrder: Int32Array;
  private droppedCount = 0;
  /** Whether steps are kept to rewind (not with floors). */
  private readonly rewinds: boolean;
  private steps = 0;
  private remPinned: number;
  private full = false;
  /** Some venue was passed by without a leg. */
  private passedBy = false;
  private readonly better: number;
  private readonly tape: WalkTape | null = recordingTape();

  constructor(
    private readonly venues: readonly VenueCtx[],
    private readonly spec: WalkSpec,
    private readonly caps: readonly number[],
    options: MergedWalkOptions = {},
  ) {
    const n = venues.length;
    this.n = n;
    const ws = workspace(n);
    this.ws = ws;
    ({ legs: this.legs, spare: this.spare, madeAt: this.madeAt, out: this.out } = ws);
    ({ keys: this.keys, firstKeys: this.firstKeys, byRank: this.byRank, rank: this.rank } = ws);
    ({ nothing: this.nothing, waiting: this.waiting, heap: this.heap, pos: this.pos } = ws);
    ({ dirty: this.dirty, isDirty: this.isDirty, droppedOrder: this.droppedOrder } = ws);
    this.better = spec.side === 'buy' ? -1 : 1;
    this.remPinned = spec.amount;
    const floors = options.floors ?? null;
    this.rewinds = floors === null;
    if (floors !== null)
      for (let v = 0; v < n; v++) {
        if (!(floors[v]! > 0)) continue;
        const w = new RuledLeg(venues[v]!, spec, caps[v]!);
        this.legs[v] = w;
        this.madeAt[v] = -2;
        if (!w.done) this.remPinned -= layFloor(w, floors[v]!, this.tape);
      }
    let m = 0;
    for (let v = 0; v < n; v++) {
      const w = this.legs[v];
      if (w !== undefined) {
        if (!w.done) {
          this.keys[v] = w.venue.levels!.price(w.level) * w.venue.rankMul;
          this.place(v);
        }
        continue;
      }
      const side = venues[v]!.levels;
      if (side === null || side.count === 0 || !(caps[v]! > 0)) continue;
      this.firstKeys[v] = this.keys[v] = side.price(0) * venues[v]!.rankMul;
      this.nothing[v] = options.visitAll === true ? -Infinity : nothingBelow(venues[v]!, spec);
      this.byRank[m++] = v;
    }
    this.waitingCount = m;
    sortByKey(this.byRank, m, this.keys, this.better, ws.scratch);
    for (let i = 0; i < m; i++) this.rank[this.byRank[i]!] = i;
    this.waiting.fill(m, (i) => this.nothing[this.byRank[i]!]!);
  }

  /** Walk, then the result. */
  run(): RuledWalkResult {
    this.walk();
    return this.result();
  }

  /** The legs with base > 0 in venue order, and whether the amount was met. */
  result(): RuledWalkResult {
    const fills: RuledFill[] = [];
    let full = this.full;
    for (let v = 0; v < this.n; v++) {
      const w = this.legs[v];
      if (w === undefined) continue;
      if (w.steps > 0 && w.fitStopped) full = true;
      if (w.base > 0) fills.push(w);
    }
    return { fills, full };
  }

  /**
   * Whether some venue the walk reached stopped because its next whole step did not fit; null
   * when only a walk that makes a leg for every venue it reaches can tell (one was passed by).
   */
  fitStops(): boolean | null {
    for (let v = 0; v < this.n; v++) if (this.legs[v]?.fitStopped === true) return true;
    return this.passedBy ? null : false;
  }

  /**
   * Drop every venue whose leg (base > 0) is not executable (under its minimum amount or cost),
   * rewind to the first step that reached one of them and walk on without them; returns whether
   * any was dropped. Only a leg that changed since the last check can newly fail: the others
   * passed it as they are. The venues dropped, in the order they were, are `dropped()`.
   */
  dropAndWalk(): boolean {
    if (!this.rewinds) throw new Error('a walk with floors does not drop venues');
    const { dirty, legs } = this;
    const count = this.dirtyCount;
    // In venue order, as the legs are: an insertion sort, since only a few legs change between checks.
    for (let i = 1; i < count; i++) {
      const v = dirty[i]!;
      let j = i - 1;
      for (; j >= 0 && dirty[j]! > v; j--) dirty[j + 1] = dirty[j]!;
      dirty[j + 1] = v;
    }
    let to = -1;
    for (let i = 0; i < count; i++) {
      const v = dirty[i]!;
      this.isDirty[v] = 0;
      const w = legs[v];
      if (w === undefined || !(w.base > 0)) continue;
      const r = w.venue.rules;
      if (r === null || (w.base >= r.minAmount && w.cost >= r.minCost)) continue;
      this.out[v] = w.base < r.minAmount ? DROPPED_MIN_AMOUNT : DROPPED_MIN_COST;
      this.droppedOrder[this.droppedCount++] = v;
      const made = this.madeAt[v]!;
      if (to < 0 || made < to) to = made;
    }
    this.dirtyCount = 0;
    if (to < 0) return false;
    this.rewind(to);
    this.walk();
    return true;
  }

  /** The venues dropped so far, with the minimum each leg missed (read by proofs only: made into a map when asked). */
  dropped(): DropLookup {
    if (this.droppedCount === 0) return NONE_DROPPED;
    const order = this.droppedOrder.slice(0, this.droppedCount);
    const codes = new Uint8Array(order.length);
    for (let i = 0; i < order.length; i++) codes[i] = this.out[order[i]!]!;
    const venues = this.venues;
    let map: Map<VenueCtx, DropReason> | null = null;
    return {
      get(venue: VenueCtx): DropReason | undefined {
        if (map === null) {
          map = new Map();
          for (let i = 0; i < order.length; i++)
            map.set(venues[order[i]!]!, codes[i] === DROPPED_MIN_AMOUNT ? 'min_amount' : 'min_cost');
        }
        return map.get(venue);
      },
    };
  }

  /** The walk is over: legs left below a whole step are marked, the workspace kept for the next walk. */
  finish(): void {
    for (let v = 0; v < this.n; v++) this.legs[v]?.finish();
    if (this.ws !== null) kept = this.ws;
    this.ws = null;
  }

  /** Walk on until the pinned amount is met or no venue can take more; whether it was met. */
  walk(): boolean {
    const { legs, keys, byRank, tape, waitingCount } = this;
    // The floors alone may meet the amount.
    if (this.remPinned <= 0) return (this.full = true);
    for (;;) {
      const r = this.next < waitingCount ? this.waiting.first(this.next, this.remPinned) : -1;
      if (r > this.next) this.passedBy = true;
      const top = this.size > 0 ? this.heap[0]! : -1;
      if (r < 0 && top < 0) break;
      const fresh = top < 0 || (r >= 0 && this.before(byRank[r]!, top));
      const v = fresh ? byRank[r]! : top;
      if (this.rewinds) this.record(v, legs[v]);
      let w = legs[v];
      if (fresh) {
        const spare = this.spare[v];
        legs[v] = w =
          spare === undefined
            ? new RuledLeg(this.venues[v]!, this.spec, this.caps[v]!)
            : spare.reset(this.caps[v]!);
        this.madeAt[v] = this.steps;
        this.waiting.set(r, Infinity);
        this.next = r + 1;
      }
      if (this.isDirty[v] === 0) {
        this.isDirty[v] = 1;
        this.dirty[this.dirtyCount++] = v;
      }
      this.steps++;
      const left = this.remPinned;
      this.remPinned -= advance(w!, left, tape);
      if (w!.met || this.remPinned <= 0) return (this.full = true);
      if (w!.done) {
        // Taking nothing from its first level, it takes nothing from any smaller amount left.
        if (fresh && w!.base === 0 && w!.lastStop !== 0 && w!.lastStop !== 4 && left > this.nothing[v]!)
          this.nothing[v] = left;
        if (!fresh) this.remove(v);
      } else {
        keys[v] = w!.venue.levels!.price(w!.level) * w!.venue.rankMul;
        this.place(v);
      }
    }
    if (this.next < waitingCount) this.passedBy = true;
    this.next = waitingCount;
    return (this.full = false);
  }

  /** Keep what step `this.steps` is about to change. */
  private record(v: number, w: RuledLeg | undefined): void {
    const ws = this.ws!;
    const s = this.steps;
    if (s === ws.order.length) ws.grow();
    ws.order[s] = v;
    const at = s * SLOTS;
    const undo = ws.undo;
    if (w !== undefined) w.save(undo, at);
    undo[at + LEG_SLOTS] = this.remPinned;
    undo[at + LEG_SLOTS + 1] = this.tape === null ? 0 : this.tape.length;
    undo[at + LEG_SLOTS + 2] = this.next;
  }

  /**
   * Undo steps `to`.. in reverse: legs made at or after `to` are unmade and wait again (unless
   * dropped), the others are put back, take their place in the heap again (none was done at `to`)
   * and count as changed.
   */
  private rewind(to: number): void {
    const { order, undo } = this.ws!;
    for (let s = this.steps - 1; s >= to; s--) {
      const v = order[s]!;
      if (this.madeAt[v] === s) {
        this.spare[v] = this.legs[v];
        this.legs[v] = undefined;
        this.madeAt[v] = -1;
        this.keys[v] = this.firstKeys[v]!;
        if (this.pos[v]! >= 0) this.remove(v);
        this.waiting.set(this.rank[v]!, this.out[v] !== 0 ? Infinity : this.nothing[v]!);
      } else this.legs[v]!.restore(undo, s * SLOTS);
    }
    for (let s = to; s < this.steps; s++) {
      const v = order[s]!;
      const w = this.legs[v];
      if (w === undefined) continue;
      this.keys[v] = w.venue.levels!.price(w.level) * w.venue.rankMul;
      this.place(v);
      if (this.isDirty[v] === 0) {
        this.isDirty[v] = 1;
        this.dirty[this.dirtyCount++] = v;
      }
    }
    const at = to * SLOTS;
    this.remPinned = undo[at + LEG_SLOTS]!;
    if (this.tape !== null) this.tape.length = undo[at + LEG_SLOTS + 1]!;
    this.next = undo[at + LEG_SLOTS + 2]!;
    this.steps = to;
    this.full = false;
  }

  /** Put venue `v` (keyed by its current level) where it belongs in the heap. */
  private place(v: number): void {
    let i = this.pos[v]!;
    if (i < 0) {
      i = this.size++;
      this.heap[i] = v;
      this.pos[v] = i;
    }
    this.down(this.up(i));
  }

  private remove(v: number): void {
    const i = this.pos[v]!;
    const last = this.heap[--this.size]!;
    this.pos[v] = -1;
    if (i === this.size) return;
    this.heap[i] = last;
    this.pos[last] = i;
    this.down(this.up(i));
  }

  /** Whether venue `a` walks before venue `b`: better ranking price, ties by venue order. */
  private before(a: number, b: number): boolean {
    const d = (this.keys[a]! - this.keys[b]!) * this.better;
    return d > 0 || (d === 0 && a < b);
  }

  private up(i: number): number {
    const { heap, pos } = this;
    const v = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p]!;
      if (!this.before(v, u)) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = v;
    pos[v] = i;
    return i;
  }

  private down(i: number): void {
    const { heap, pos, size } = this;
    const v = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && this.before(heap[r]!, heap[l]!) ? r : l;
      const u = heap[c]!;
      if (!this.before(u, v)) break;
      heap[i] = u;
      pos[u] = i;
      i = c;
    }
    heap[i] = v;
    pos[v] = i;
  }
}

/**
 * Sort venue indices `a[0..n)` into walk order: the better key first (`better` -1 lower, 1
 * higher), ties by venue index, as `MergedRuledWalk.before` orders them. A merge sort with the
 * comparison inline: a comparator function called from a sort costs more than the walk it serves.
 */
function sortByKey(a: Int32Array, n: number, keys: Float64Array, better: number, tmp: Int32Array): void {
  let src = a;
  let dst = tmp;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        if (j >= hi) dst[k] = src[i++]!;
        else if (i >= mid) dst[k] = src[j++]!;
        else {
          const x = src[i]!;
          const y = src[j]!;
          const d = (keys[y]! - keys[x]!) * better;
          if (d > 0 || (d === 0 && y < x)) {
            dst[k] = y;
            j++;
          } else {
            dst[k] = x;
            i++;
          }
        }
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src.subarray(0, n));
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
