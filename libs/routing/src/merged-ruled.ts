import type { FirstBelow } from './first-below';
import type { VenueCtx } from './hop-context';
import { keepWorkspace, SLOTS, takeWorkspace, type Workspace } from './merged-workspace';
import type { ParkedLegs } from './parked-legs';
import { advance, layFloor, LEG_SLOTS, nothingBelow, RuledLeg, type RuledFill } from './ruled-leg';
import { atMinimums, DROPPED_MIN_AMOUNT, DROPPED_MIN_COST, droppedLookup, underMinimum } from './ruled-drops';
import { sortVenues } from './walk-order';
import type { VenueHeap } from './venue-heap';
import { recordingTape, type DropLookup, type WalkResult, type WalkSpec, type WalkTape } from './walk';

// split_optimal's walk with rules (docs/semantics.md section 13): the levels of the hop's venues
// merged by ranking price (ties by venue order, then level order), each venue growing by whole
// steps. A leg under its venue's minimum drops that venue and the walk runs again without it
// (strategies-rules.ts). Three things keep that cheap without changing a leg:
// - A drop rewinds to the first step that reached a dropped venue (each step keeps what it
//   changed) and the walk goes on from there, instead of running again from the start.
// - Near the end of a hop, what is left is often less than one step on most venues. Venues not
//   yet reached wait in ranking order with the amount below which they surely take nothing
//   (nothingBelow): the walk passes them by in O(log n) and makes no leg for them. Only whether
//   one of them stopped for a whole step (fitStops) needs them, and a plain walk answers that.
// - Legs walking that would take nothing of that dust are set aside (parked-legs.ts) instead of
//   being reached in turn, again after every rewind.

/** A rule-aware walk's result. */
export type RuledWalkResult = WalkResult;

/** Options of a merged walk. */
export interface MergedWalkOptions {
  /** The fill search's floors: each venue's leg first laid up to that many base units; such a walk does not drop. */
  readonly floors?: readonly number[] | null;
  /** Reach every venue and leg in turn, as a plain walk does, even one that surely takes nothing. */
  readonly visitAll?: boolean;
}

/**
 * A merged rule-aware walk over `venues` (in exchangeId order) that can drop venues and go on.
 * Venues with a leg walking are in a heap by the ranking price of their current level. Venues
 * not yet reached wait in walk order, each with the amount left below which it surely takes
 * nothing, in a tree that finds the next one that might take in O(log n).
 */
export class MergedRuledWalk {
  private readonly n: number;
  private ws: Workspace | null;
  private readonly legs: (RuledLeg | undefined)[];
  /** The step at which each venue's leg was made: -1 none yet, -2 before the walk (a floor). */
  private readonly madeAt: Int32Array;
  /** Why each venue was dropped: 0 it was not, else a DROPPED_ code. */
  private readonly out: Uint8Array;
  /** Ranking key of each venue's current level (its first while it has no leg). */
  private readonly keys: Float64Array;
  private readonly firstKeys: Float64Array;
  /** Venues with no leg at the start that could walk, in walk order (`ranked` of them), and each one's place (-1 none). */
  private readonly byRank: Int32Array;
  private readonly rank: Int32Array;
  private ranked = 0;
  /** Per place: the amount left below which that venue surely takes nothing (+Infinity once it has a leg). */
  private readonly waiting: FirstBelow;
  private readonly nothing: Float64Array;
  /** The next place the walk has not passed. */
  private next = 0;
  private readonly walking: VenueHeap;
  /** Legs set aside: each would take nothing more when reached (parked-legs.ts). */
  private readonly parked: ParkedLegs;
  /** The last walk ended with no venue left to reach. */
  private exhausted = false;
  /** Venues whose leg changed since the last drop check. */
  private readonly dirty: Int32Array;
  private readonly isDirty: Uint8Array;
  private dirtyCount = 0;
  /** Venues dropped (`out` says why), in the order they were. */
  private readonly droppedOrder: number[] = [];
  /** Whether steps are kept to rewind (not with floors). */
  private readonly rewinds: boolean;
  private readonly visitAll: boolean;
  private steps = 0;
  /**
   * Legs under their minimums (droppable). A leg only grows until a rewind, so while this is 0 no
   * later drop can rewind to a step on a leg already made: its undo record is not written.
   */
  private unsafe = 0;
  private remPinned: number;
  private full = false;
  /** Some venue was passed by without a leg. */
  private passedBy = false;
  private readonly tape: WalkTape | null = recordingTape();

  constructor(
    private readonly venues: readonly VenueCtx[],
    private readonly spec: WalkSpec,
    private readonly caps: readonly number[],
    options: MergedWalkOptions = {},
  ) {
    const n = venues.length;
    this.n = n;
    const ws = takeWorkspace(n, spec.side === 'buy' ? -1 : 1);
    this.ws = ws;
    ({ legs: this.legs, madeAt: this.madeAt, out: this.out, keys: this.keys } = ws);
    ({ firstKeys: this.firstKeys, byRank: this.byRank, rank: this.rank, nothing: this.nothing } = ws);
    ({ waiting: this.waiting, walking: this.walking, parked: this.parked } = ws);
    ({ dirty: this.dirty, isDirty: this.isDirty } = ws);
    this.remPinned = spec.amount;
    this.visitAll = options.visitAll === true;
    const floors = options.floors ?? null;
    this.rewinds = floors === null;
    let finite = true;
    for (let v = 0; v < n; v++) {
      const venue = venues[v]!;
      const side = venue.levels;
      if (floors !== null && floors[v]! > 0) {
        const w = new RuledLeg(venue, spec, caps[v]!);
        this.legs[v] = w;
        this.madeAt[v] = -2;
        if (!w.done) this.remPinned -= layFloor(w, floors[v]!, this.tape);
        if (!w.done) {
          this.keys[v] = side!.price(w.level) * venue.rankMul;
          this.walking.place(v);
        }
        continue;
      }
      if (side === null || side.count === 0 || !(caps[v]! > 0)) continue;
      const price0 = side.price(0);
      const key = price0 * venue.rankMul;
      if (!(Math.abs(key) < Infinity)) finite = false;
      this.firstKeys[v] = this.keys[v] = key;
      this.nothing[v] = this.visitAll ? -Infinity : nothingBelow(venue, spec, price0);
      this.byRank[this.ranked++] = v;
    }
    const ranked = this.ranked;
    const first = ranked > 0 ? venues[this.byRank[0]!]!.levels! : null;
    ws.sortRanked(ranked, n, spec.side === 'buy' ? -1 : 1, finite, first);
    for (let at = 0; at < ranked; at++) {
      const v = this.byRank[at]!;
      this.rank[v] = at;
    }
    this.waiting.fillFrom(ranked, this.nothing, this.byRank);
  }

  /** Walk, then the result. */
  run(): RuledWalkResult {
    this.walk();
    return this.result();
  }

  /** The legs with base > 0 in venue order, and whether the amount was met. */
  result(): RuledWalkResult {
    this.settle();
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
    this.settle();
    for (let v = 0; v < this.n; v++) if (this.legs[v]?.fitStopped === true) return true;
    return this.passedBy ? null : false;
  }

  /**
   * Drop every venue whose leg (base > 0) is not executable (under its minimum amount or cost),
   * rewind to the first step that reached one of them and walk on without them; returns whether
   * any was dropped. Only a leg that changed since the last check can newly fail: the others
   * passed it as they are.
   */
  dropAndWalk(): boolean {
    if (!this.rewinds) throw new Error('a walk with floors does not drop venues');
    const { dirty, legs } = this;
    const count = this.dirtyCount;
    // In venue order, as the legs are.
    sortVenues(dirty, count, null);
    let to = -1;
    for (let i = 0; i < count; i++) {
      const v = dirty[i]!;
      this.isDirty[v] = 0;
      const w = legs[v];
      if (w === undefined || !(w.base > 0) || atMinimums(w)) continue;
      const r = w.venue.rules!;
      this.out[v] = w.base < r.minAmount ? DROPPED_MIN_AMOUNT : DROPPED_MIN_COST;
      this.droppedOrder.push(v);
      const made = this.madeAt[v]!;
      if (to < 0 || made < to) to = made;
    }
    this.dirtyCount = 0;
    if (to < 0) return false;
    this.rewind(to);
    if (this.settles()) return true;
    this.dropAhead();
    this.walk();
    return true;
  }

  /**
   * Whether the drops left to come can be skipped: with no leg walking, every venue that could
   * still take something of what is left would take less than its minimum, so each would be
   * dropped in turn and the walk would end where it stands, unfilled. Only the order of those
   * drops is then unknown, which only a proof shows (the tape): a walk recording one runs them.
   */
  private settles(): boolean {
    if (this.tape !== null || this.walking.size > 0) return false;
    const left = this.remPinned;
    for (let at = this.candidate(this.next, left); at >= 0; at = this.candidate(at + 1, left))
      if (!underMinimum(this.venues[this.byRank[at]!]!, this.spec, left)) return false;
    this.next = this.ranked;
    this.full = false;
    // Every leg set aside is reached before the walk ends, with what is left now.
    this.exhausted = true;
    return true;
  }

  /**
   * Rounds of drops run ahead without making legs, while that is possible. With no leg walking,
   * what is left goes to venues not yet reached, in walk order, each taking once (a chain). When
   * the chain's first taker is dropped, the walk from here without the dropped venues repeats
   * nothing of this round, so the next round starts at the same point with the same amount left:
   * a round is a few steps on one scratch leg and the drops. A round whose first taker stays, or
   * a venue that would walk on past its first level, is left to `walk`, which makes the legs.
   */
  private dropAhead(): void {
    const ws = this.ws!;
    const { chain, chainWhy } = ws;
    for (;;) {
      // Legs set aside take nothing more: what is left goes to venues not yet reached.
      if (this.walking.size > 0) return;
      let left = this.remPinned;
      let from = this.next;
      let count = 0;
      let first = true;
      for (;;) {
        const at = this.candidate(from, left);
        if (at < 0) break;
        const v = this.byRank[at]!;
        const w = (ws.probe ??= new RuledLeg(this.venues[v]!, this.spec, this.caps[v]!)).begin(
          this.venues[v]!,
          this.spec,
          this.caps[v]!,
        );
        const took = advance(w, left, null);
        if (!w.done) return;
        from = at + 1;
        if (w.base === 0) {
          // As `walk` notes it: taking nothing of this much, it takes nothing of less.
          if (w.lastStop !== 0 && w.lastStop !== 4 && left > this.nothing[v]!) {
            this.nothing[v] = left;
            this.waiting.set(at, left);
          }
          continue;
        }
        const bad = !atMinimums(w);
        if (first && !bad) return;
        first = false;
        if (bad) {
          chain[count] = v;
          chainWhy[count++] = w.base < w.venue.rules!.minAmount ? DROPPED_MIN_AMOUNT : DROPPED_MIN_COST;
        }
        left -= took;
        if (w.met || left <= 0) break;
      }
      if (count === 0) return;
      // Dropped in venue order, as `dropAndWalk` drops them.
      sortVenues(chain, count, chainWhy);
      for (let i = 0; i < count; i++) {
        const v = chain[i]!;
        this.out[v] = chainWhy[i]!;
        this.droppedOrder.push(v);
        this.waiting.set(this.rank[v]!, Infinity);
      }
    }
  }

  /** The venues dropped, with the minimum each leg missed (read by proofs only). */
  dropped(): DropLookup {
    return droppedLookup(this.droppedOrder, this.out, this.venues);
  }

  /** The walk is over: legs left below a whole step are marked, the workspace kept for the next walk. */
  finish(): void {
    this.settle();
    for (let v = 0; v < this.n; v++) this.legs[v]?.finish();
    if (this.ws !== null) keepWorkspace(this.ws);
    this.ws = null;
  }

  /** Walk on until the pinned amount is met or no venue can take more; whether it was met. */
  walk(): boolean {
    const { legs, keys, byRank, tape } = this;
    // The floors alone may meet the amount.
    if (this.remPinned <= 0) return (this.full = true);
    for (;;) {
      const r = this.candidate(this.next, this.remPinned);
      if (r > this.next) this.passedBy = true;
      const top = this.walking.top();
      if (r < 0 && top < 0) break;
      const fresh = top < 0 || (r >= 0 && this.walking.before(byRank[r]!, top));
      const v = fresh ? byRank[r]! : top;
      if (this.rewinds && (fresh || this.unsafe > 0))
        this.ws!.record(this.steps, v, legs[v], this.remPinned, tape === null ? 0 : tape.length, this.next);
      let w = legs[v];
      if (fresh) {
        const reused = this.ws!.free.pop();
        const venue = this.venues[v]!;
        legs[v] = w =
          reused === undefined
            ? new RuledLeg(venue, this.spec, this.caps[v]!)
            : reused.begin(venue, this.spec, this.caps[v]!);
        this.madeAt[v] = this.steps;
        this.waiting.set(r, Infinity);
        this.next = r + 1;
      }
      if (this.isDirty[v] === 0) {
        this.isDirty[v] = 1;
        this.dirty[this.dirtyCount++] = v;
      }
      const left = this.remPinned;
      const wasUnsafe = !atMinimums(w!);
      if (fresh && wasUnsafe) this.unsafe++;
      this.remPinned -= advance(w!, left, tape);
      if (this.parked.count > 0) this.parked.log(this.steps, v, keys[v]!, this.remPinned);
      this.steps++;
      if (wasUnsafe && atMinimums(w!)) this.unsafe--;
      if (w!.met || this.remPinned <= 0) return (this.full = true);
      if (w!.done) {
        // Taking nothing from its first level, it takes nothing from any smaller amount left.
        if (fresh && w!.base === 0 && w!.lastStop !== 0 && w!.lastStop !== 4 && left > this.nothing[v]!)
          this.nothing[v] = left;
        if (!fresh) this.walking.remove(v);
        // Stopped short of a whole step by the amount left: that dust may be below one step of every leg.
        if (w!.lastStop === 1 && w!.lastPinned > 0 && !this.visitAll)
          this.parked.parkFrom(this.walking, legs, this.remPinned, this.steps);
      } else {
        keys[v] = w!.venue.levels!.price(w!.level) * w!.venue.rankMul;
        this.walking.place(v);
      }
    }
    if (this.next < this.ranked) this.passedBy = true;
    this.next = this.ranked;
    this.exhausted = true;
    return (this.full = false);
  }

  /** The walk is over: each leg set aside that it reached takes its turn. */
  private settle(): void {
    if (this.parked.count > 0)
      this.parked.settle(this.legs, this.steps, this.exhausted, this.full, this.tape);
  }

  /** The first place >= `from` whose venue might take something of `left`; -1 when none. */
  private candidate(from: number, left: number): number {
    return from < this.ranked ? this.waiting.first(from, left) : -1;
  }

  /**
   * Undo steps `to`.. in reverse: legs made at or after `to` are unmade and wait again at their
   * place (unless dropped), the others are put back, take their place in the heap again (none
   * was done at `to`) and count as changed.
   */
  private rewind(to: number): void {
    const { order, undo, free } = this.ws!;
    if (this.parked.count > 0) this.parked.rewind(to, this.walking);
    this.exhausted = false;
    for (let s = this.steps - 1; s >= to; s--) {
      const v = order[s]!;
      if (this.madeAt[v] === s) {
        free.push(this.legs[v]!);
        this.legs[v] = undefined;
        this.madeAt[v] = -1;
        this.keys[v] = this.firstKeys[v]!;
        if (this.walking.has(v)) this.walking.remove(v);
        this.waiting.set(this.rank[v]!, this.out[v] !== 0 ? Infinity : this.nothing[v]!);
      } else this.legs[v]!.restore(undo, s * SLOTS);
    }
    for (let s = to; s < this.steps; s++) {
      const v = order[s]!;
      const w = this.legs[v];
      if (w === undefined) continue;
      this.keys[v] = w.venue.levels!.price(w.level) * w.venue.rankMul;
      this.walking.place(v);
      if (this.isDirty[v] === 0) {
        this.isDirty[v] = 1;
        this.dirty[this.dirtyCount++] = v;
      }
    }
    this.unsafe = 0;
    for (const w of this.legs) if (w !== undefined && !atMinimums(w)) this.unsafe++;
    const at = to * SLOTS;
    this.remPinned = undo[at + LEG_SLOTS]!;
    if (this.tape !== null) this.tape.length = undo[at + LEG_SLOTS + 1]!;
    this.next = undo[at + LEG_SLOTS + 2]! | 0; // an integer, as RuledLeg.restore keeps a level
    this.steps = to;
    this.full = false;
  }
}
