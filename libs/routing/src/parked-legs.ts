import { advance, takesNothing, type RuledLeg } from './ruled-leg';
import type { VenueHeap } from './venue-heap';
import type { WalkTape } from './walk';

// Near the end of a merged rule-aware walk (merged-ruled.ts), what is left of the pinned amount is
// often dust below one whole step of every leg still walking. Each of those legs, reached in turn,
// takes nothing and stops; and when a venue reached after that is dropped, the walk rewinds and
// reaches them all again. Such legs are set aside instead, as soon as the dust appears: what the
// visit would do is decided once, when the walk is over. A leg that takes nothing changes nothing
// else, so the walk's other steps are the same; and since the walk reaches venues in ranking
// order, a leg set aside is reached just after the last step ranked before it, with what that step
// left, unless the walk ended first.

/** Legs set aside, with a log of the steps taken while any is. */
export class ParkedLegs {
  /** The legs set aside (venue indices). */
  private readonly legs: Int32Array;
  count = 0;
  /** Per venue: the steps taken before it was set aside, and the amount left then. */
  private readonly after: Int32Array;
  private readonly leftThen: Float64Array;
  /** Per step while some leg is set aside: its venue, that venue's ranking key, the amount left after it. */
  private venue = new Int32Array(64);
  private key = new Float64Array(64);
  private left = new Float64Array(64);
  /**
   * The logged step the walk stands at (-1 none): the last one taken, or after a rewind the one
   * undone, which the walk's next step ranks after. Legs set aside that rank before it were reached.
   */
  private frontier = -1;

  /** The walk's ranking keys, the better one lower (`better` -1) or higher (1). */
  private keys: Float64Array = new Float64Array(0);
  private better = 1;

  constructor(capacity: number) {
    this.legs = new Int32Array(capacity);
    this.after = new Int32Array(capacity);
    this.leftThen = new Float64Array(capacity);
  }

  /** None set aside, for a walk ranking venues by `keys` (`better` as VenueHeap has it). */
  clear(keys: Float64Array, better: number): void {
    this.count = 0;
    this.keys = keys;
    this.better = better;
  }

  /**
   * Set aside every leg walking in `heap` that would take nothing of `left`, or of less, after
   * `steps` steps.
   */
  parkFrom(heap: VenueHeap, legs: readonly (RuledLeg | undefined)[], left: number, steps: number): void {
    const from = this.count;
    for (let i = 0; i < heap.size; i++) {
      const v = heap.at(i);
      if (takesNothing(legs[v]!, left)) this.legs[this.count++] = v;
    }
    if (this.count === from) return;
    if (from === 0) this.frontier = -1;
    for (let i = from; i < this.count; i++) {
      const v = this.legs[i]!;
      heap.remove(v);
      this.after[v] = steps;
      this.leftThen[v] = left;
    }
  }

  /** Step `s` was venue `v`'s at ranking key `key`, and left `left`. */
  log(s: number, v: number, key: number, left: number): void {
    if (s >= this.venue.length) this.grow(s);
    this.venue[s] = v;
    this.key[s] = key;
    this.left[s] = left;
    this.frontier = s;
  }

  /**
   * A rewind to step `to`: legs set aside after it walk again (placed back in `heap`); the walk
   * stands at step `to` again, logged if a leg is still set aside.
   */
  rewind(to: number, heap: VenueHeap): void {
    this.frontier = to;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      const v = this.legs[i]!;
      if (this.after[v]! > to) heap.place(v);
      else this.legs[kept++] = v;
    }
    this.count = kept;
  }

  /**
   * The walk is over after `steps` steps (`exhausted`: no venue was left to reach; `full`: it met
   * the pinned amount): each leg set aside that it reached takes its turn, with what was left then.
   * That turn takes nothing. What it changes (the leg's stop, whether one more step would have fit,
   * the rule that shaped it) is read only by a proof (`tape`) or when the walk ended short, except
   * whether the leg's funds stopped it, which the answer shows (`balanceLimited`). So a walk that met
   * its amount with no proof recording skips the turn only of a leg whose funds are unbounded.
   */
  settle(
    legs: readonly (RuledLeg | undefined)[],
    steps: number,
    exhausted: boolean,
    full: boolean,
    tape: WalkTape | null,
  ): void {
    const skip = full && tape === null;
    for (let i = 0; i < this.count; i++) {
      const v = this.legs[i]!;
      const w = legs[v]!;
      if (skip && w.remCap === Infinity) continue;
      if (!exhausted && !this.reached(v)) continue;
      advance(w, this.leftAt(v, steps), tape);
    }
    this.count = 0;
  }

  /** Whether venue `v` (set aside) ranks before the step the walk stands at: then the walk reached it. */
  private reached(v: number): boolean {
    const s = this.frontier;
    return s >= this.after[v]! && this.ranksBefore(v, s);
  }

  /** Venue `v` (set aside, at key keys[v]) ranks before step `s`. */
  private ranksBefore(v: number, s: number): boolean {
    const u = this.venue[s]!;
    const d = (this.keys[v]! - this.key[s]!) * this.better;
    return d > 0 || (d === 0 && v < u);
  }

  /** The amount left when the walk reached venue `v`: after the last step ranked before it. */
  private leftAt(v: number, steps: number): number {
    for (let s = steps - 1; s >= this.after[v]!; s--) if (!this.ranksBefore(v, s)) return this.left[s]!;
    return this.leftThen[v]!;
  }

  private grow(s: number): void {
    let n = this.venue.length * 2;
    while (n <= s) n *= 2;
    const venue = new Int32Array(n);
    venue.set(this.venue);
    const key = new Float64Array(n);
    key.set(this.key);
    const left = new Float64Array(n);
    left.set(this.left);
    this.venue = venue;
    this.key = key;
    this.left = left;
  }
}
