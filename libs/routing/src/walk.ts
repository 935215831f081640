import type { VenueCtx } from './hop-context';
import type { ExactSide, Side } from './types';
import { VenueHeap } from './venue-heap';

/** What a hop asks of the books: side, which side is pinned, and how much (in that side's asset). */
export interface WalkSpec {
  readonly side: Side;
  readonly pinned: ExactSide;
  readonly amount: number;
}

/** One venue's share of a walk. */
export interface Fill {
  readonly venue: VenueCtx;
  /** Base units filled. */
  base: number;
  /** Raw quote value: sum of price x base. */
  cost: number;
  /** The venue's funding cap stopped it from taking more. */
  capLimited: boolean;
}

/** Result of walking one or more venues. */
export interface WalkResult {
  /** Fills with base > 0, in venue order. */
  readonly fills: Fill[];
  /** The pinned amount was met. */
  readonly full: boolean;
  /** With venue rules: venues left out because their leg was under a minimum (for the proof). */
  readonly dropped?: DropLookup;
  /** With venue rules: the legs come from the fill search (docs/semantics.md section 13). */
  readonly searched?: boolean;
}

/** Why a venue rule left a venue out of a hop: its leg was under minAmount, or under minCost. */
export type DropReason = 'min_amount' | 'min_cost';

/** The venues a hop's rules left out, each with why (a map's `get`). */
export interface DropLookup {
  get(venue: VenueCtx): DropReason | undefined;
}

/** Why the last `take` stopped: 0 level exhausted, 1 pinned amount met, 2 cap reached. */
let takeBy: 0 | 1 | 2 = 0;

/**
 * What a proof records of the walks (solve-proof.ts): every take appended as three entries, the
 * fill, the base units taken and why the take stopped (`takeBy`). A fill's takes are always its
 * book's levels 0, 1, 2, ... in order, so the level is the take's rank within its fill.
 */
export type WalkTape = (Fill | number)[];

/** Set only during the one synchronous solve that builds a proof. */
let tape: WalkTape | null = null;

/**
 * Append every take of every walk to `into` until called again with null. The hook is a builtin
 * push behind a null test, as small as can be, on purpose: V8 inlines walkVenue into its callers
 * only under a bytecode budget that walkVenue nearly fills. At 349 bytes (324 before the hook) a
 * plain solve ran 1.3 % slower than before, one inlining level being lost under the quotes; at
 * 358 best_single's loop no longer inlined it and a plain solve allocated 15 % more. Reading
 * `venue.fee` once (348 bytes) brought it back to parity (in-process A/B, BENCHMARKS.md). A call
 * of ours in place of the push, once proofs had warmed it, got inlined and cost the same.
 */
export function recordWalks(into: WalkTape | null): void {
  tape = into;
}

/** The tape being recorded, if any: the rule-aware walks (walk-rules.ts) append to it too. */
export function recordingTape(): WalkTape | null {
  return tape;
}

/**
 * Base units of one level that a walk takes, given what is left of the pinned amount and of the
 * venue's funding cap (in the hop's input asset); the reason lands in `takeBy` (no allocation on
 * this hot path). Shared by single and merged walks so that both take identical pieces
 * (clarifications 2: notional walks include the fee in the budget).
 */
function take(
  spec: WalkSpec,
  fee: number,
  price: number,
  avail: number,
  remPinned: number,
  remCap: number,
): number {
  const inPerBase = spec.side === 'buy' ? price * (1 + fee) : 1;
  const pinnedPerBase = spec.pinned === 'in' ? inPerBase : spec.side === 'buy' ? 1 : price * (1 - fee);
  let base = avail;
  takeBy = 0;
  const byPinned = remPinned / pinnedPerBase;
  if (byPinned <= base) {
    base = byPinned;
    takeBy = 1;
  }
  const byCap = remCap / inPerBase;
  if (byCap < base) {
    base = byCap;
    takeBy = 2;
  }
  return base;
}

function pinnedOf(spec: WalkSpec, fee: number, price: number, base: number): number {
  if (spec.pinned === 'in') return spec.side === 'buy' ? base * price * (1 + fee) : base;
  return spec.side === 'buy' ? base : base * price * (1 - fee);
}

function inputOf(spec: WalkSpec, fee: number, price: number, base: number): number {
  return spec.side === 'buy' ? base * price * (1 + fee) : base;
}

/** Walk one venue's book for the whole pinned amount (a quote, or a best_single candidate). */
export function walkVenue(venue: VenueCtx, spec: WalkSpec, cap: number): WalkResult {
  const fill: Fill = { venue, base: 0, cost: 0, capLimited: false };
  const side = venue.levels;
  const fee = venue.fee;
  let remPinned = spec.amount;
  let remCap = cap;
  let full = false;
  if (side !== null && remCap > 0) {
    for (let i = 0; i < side.count; i++) {
      const price = side.price(i);
      const base = take(spec, fee, price, side.amount(i), remPinned, remCap);
      fill.base += base;
      fill.cost += base * price;
      const by = takeBy;
      if (tape !== null) tape.push(fill, base, by);
      if (by === 1) {
        full = true;
        break;
      }
      if (by === 2) {
        fill.capLimited = true;
        break;
      }
      remPinned -= pinnedOf(spec, fee, price, base);
      remCap -= inputOf(spec, fee, price, base);
      // Float dust can take a whole level to exactly the target: that is a full fill.
      if (remPinned <= 0) {
        full = true;
        break;
      }
      if (remCap <= 0) {
        fill.capLimited = true;
        break;
      }
    }
  } else if (side !== null && side.count > 0) {
    fill.capLimited = true;
  }
  return { fills: fill.base > 0 ? [fill] : [], full };
}

/** walkMerged's heap and keys, grown to the most venues seen. */
let merging = { keys: new Float64Array(0), heap: new VenueHeap(0) };

/**
 * split_optimal's consolidated walk: merge the levels of `venues` by ranking price (ties by venue
 * order, i.e. exchangeId, then level order) and consume greedily until the pinned amount is met;
 * each venue spends at most its cap (clarifications 4 and 8).
 */
export function walkMerged(venues: readonly VenueCtx[], spec: WalkSpec, caps: readonly number[]): WalkResult {
  const n = venues.length;
  const fills: Fill[] = venues.map((venue) => ({ venue, base: 0, cost: 0, capLimited: false }));
  const next = new Int32Array(n);
  const remCap = Float64Array.from(caps);
  // Venues by the ranking price of their next level (ties by venue order), in arrays kept from
  // one call to the next: walks are synchronous and never nested.
  if (merging.keys.length < n) merging = { keys: new Float64Array(n), heap: new VenueHeap(n) };
  const { keys, heap } = merging;
  heap.clear(n, keys, spec.side === 'buy' ? -1 : 1);
  const rank = (v: number): number => venues[v]!.levels!.price(next[v]!) * venues[v]!.rankMul;
  for (let v = 0; v < n; v++) {
    const side = venues[v]!.levels;
    if (side === null || side.count === 0) continue;
    if (remCap[v]! <= 0) {
      fills[v]!.capLimited = true;
      continue;
    }
    keys[v] = rank(v);
    heap.place(v);
  }
  let remPinned = spec.amount;
  let full = false;
  while (heap.size > 0) {
    const v = heap.top();
    const venue = venues[v]!;
    const side = venue.levels!;
    const i = next[v]!;
    const price = side.price(i);
    const fill = fills[v]!;
    const base = take(spec, venue.fee, price, side.amount(i), remPinned, remCap[v]!);
    fill.base += base;
    fill.cost += base * price;
    if (tape !== null) tape.push(fill, base, takeBy);
    if (takeBy === 1) {
      full = true;
      break;
    }
    remPinned -= pinnedOf(spec, venue.fee, price, base);
    if (remPinned <= 0) {
      full = true;
      break;
    }
    if (takeBy === 2) {
      fill.capLimited = true;
      remCap[v] = 0;
      heap.pop();
      continue;
    }
    remCap[v] = remCap[v]! - inputOf(spec, venue.fee, price, base);
    next[v] = i + 1;
    if (remCap[v] <= 0) {
      fill.capLimited = true;
      heap.pop();
      continue;
    }
    if (i + 1 < side.count) {
      keys[v] = rank(v);
      heap.place(v);
    } else heap.pop();
  }
  return { fills: fills.filter((f) => f.base > 0), full };
}
