import { FirstBelow } from './first-below';
import { ParkedLegs } from './parked-legs';
import { LEG_SLOTS, type RuledLeg } from './ruled-leg';
import { VenueHeap } from './venue-heap';
import { OrderMemo, sortByKey } from './walk-order';

// The arrays of a merged rule-aware walk (merged-ruled.ts), kept from one walk to the next: a
// solve walks several hops one after another, each over up to every venue of a market, and a
// rule-aware hop that drops venues walks hundreds of short steps.

/** Numbers kept per step: the advanced leg's state before it, the amount left, the tape's length, the next untouched venue. */
export const SLOTS = LEG_SLOTS + 3;

/** The arrays of a merged walk over up to `capacity` venues. */
export class Workspace {
  readonly legs: (RuledLeg | undefined)[];
  /** Leg objects a rewind unmade: none of them is in a result, so a later leg may be made of one. */
  readonly free: RuledLeg[] = [];
  readonly madeAt: Int32Array;
  readonly out: Uint8Array;
  readonly keys: Float64Array;
  readonly firstKeys: Float64Array;
  readonly byRank: Int32Array;
  readonly rank: Int32Array;
  readonly nothing: Float64Array;
  readonly waiting: FirstBelow;
  readonly walking: VenueHeap;
  readonly scratch: Int32Array;
  readonly dirty: Int32Array;
  readonly isDirty: Uint8Array;
  /** A round of drops run ahead: its dropped venues and why, and the leg it walks them on. */
  readonly chain: Int32Array;
  readonly chainWhy: Uint8Array;
  /** The walk orders of recent walks, each a good start for the next walk over the same books. */
  readonly orders = new OrderMemo();
  probe: RuledLeg | null = null;
  readonly parked: ParkedLegs;
  order: Int32Array = new Int32Array(64);
  undo: Float64Array = new Float64Array(64 * SLOTS);

  constructor(readonly capacity: number) {
    this.legs = new Array<RuledLeg | undefined>(capacity);
    this.madeAt = new Int32Array(capacity);
    this.out = new Uint8Array(capacity);
    this.keys = new Float64Array(capacity);
    this.firstKeys = new Float64Array(capacity);
    this.byRank = new Int32Array(capacity);
    this.rank = new Int32Array(capacity);
    this.nothing = new Float64Array(capacity);
    this.waiting = new FirstBelow(capacity);
    this.walking = new VenueHeap(capacity);
    this.scratch = new Int32Array(capacity);
    this.dirty = new Int32Array(capacity);
    this.isDirty = new Uint8Array(capacity);
    this.chain = new Int32Array(capacity);
    this.chainWhy = new Uint8Array(capacity);
    this.parked = new ParkedLegs(capacity);
  }

  /** Ready for a walk over `n` venues whose better key is lower (`better` -1) or higher (1). */
  clear(n: number, better: number): this {
    // One pass for all the rows: a walk's venues are a few dozen, where each fill is a call.
    const { legs, madeAt, out, rank, isDirty } = this;
    for (let v = 0; v < n; v++) {
      legs[v] = undefined;
      madeAt[v] = -1;
      out[v] = 0;
      rank[v] = -1;
      isDirty[v] = 0;
    }
    this.walking.clear(n, this.keys, better);
    this.parked.clear(this.keys, better);
    return this;
  }

  /**
   * Sort `byRank[0..count)` (venue indices in venue order, of a walk over `n` venues) into walk
   * order: better key, then lower index. Only finite keys order the venues strictly, whatever
   * order the sort starts from, so only then does it start from the order kept under `first`
   * (the book side of the first venue ranked).
   */
  sortRanked(count: number, n: number, better: number, finite: boolean, first: object | null): void {
    if (finite && count > 1 && first !== null)
      this.orders.sort(first, this.byRank, count, this.keys, better, this.scratch, this.rank, n);
    else sortByKey(this.byRank, count, this.keys, better, this.scratch);
  }

  /**
   * Keep what step `s` (on venue `v`, whose leg is `w` if it has one) is about to change, with
   * the amount left, the tape's length and the next place not passed before it.
   */
  record(
    s: number,
    v: number,
    w: RuledLeg | undefined,
    left: number,
    tapeLength: number,
    next: number,
  ): void {
    this.reserve(s);
    this.order[s] = v;
    const at = s * SLOTS;
    const undo = this.undo;
    if (w !== undefined) w.save(undo, at);
    undo[at + LEG_SLOTS] = left;
    undo[at + LEG_SLOTS + 1] = tapeLength;
    undo[at + LEG_SLOTS + 2] = next;
  }

  /** Room for `steps` steps in the undo record. */
  reserve(steps: number): void {
    if (steps < this.order.length) return;
    ({ order: this.order, undo: this.undo } = grownLog(this.order, this.undo, SLOTS, steps));
  }
}

/** A walk's step log (`order`, and `slots` numbers a step in `undo`) grown to hold step `steps`. */
export function grownLog(
  order: Int32Array,
  undo: Float64Array,
  slots: number,
  steps: number,
): { order: Int32Array; undo: Float64Array } {
  let n = order.length * 2;
  while (n <= steps) n *= 2;
  const grownOrder = new Int32Array(n);
  grownOrder.set(order);
  const grownUndo = new Float64Array(n * slots);
  grownUndo.set(undo);
  return { order: grownOrder, undo: grownUndo };
}

/** The workspace of the last walk that finished. */
let kept: Workspace | null = null;

/** A workspace for `n` venues: the kept one when it is free and large enough. */
export function takeWorkspace(n: number, better: number): Workspace {
  const ws = kept !== null && kept.capacity >= n ? kept : new Workspace(Math.max(n, 64));
  if (ws === kept) kept = null;
  return ws.clear(n, better);
}

/** Keep `ws` for the next walk (its walk is over). */
export function keepWorkspace(ws: Workspace): void {
  kept = ws;
}
