import type { VenueCtx } from './hop-context';
import type { RuledFill } from './ruled-leg';
import type { DropLookup, DropReason, WalkSpec } from './walk';

// What a merged rule-aware walk (merged-ruled.ts) knows about dropping venues: why a venue was
// dropped, the lookup proofs read, and the bound that tells a venue surely under its minimum.

/** A walk that dropped nothing. */
export const NONE_DROPPED: DropLookup = { get: () => undefined };

/** Why a venue was dropped (its `out` code; 0 = walking). */
export const DROPPED_MIN_AMOUNT = 1;
export const DROPPED_MIN_COST = 2;

/**
 * The venues dropped (indices into `venues`, in drop order, each with its `out` code), as a
 * lookup made into a map only when a proof asks.
 */
export function droppedLookup(
  order: readonly number[],
  out: Uint8Array,
  venues: readonly VenueCtx[],
): DropLookup {
  if (order.length === 0) return NONE_DROPPED;
  const codes = order.map((v) => out[v]!);
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

/** How far under a bound a leg's largest possible amount or cost must be to be sure it misses a minimum. */
const UNDER_MARGIN = 1e-9;

/**
 * Whether every leg `venue` could begin with at most `left` of the pinned amount (a leg never
 * overshoots it) is under the venue's minimum amount or cost. On a buy the book's first price is
 * its lowest and on a sell its highest, which bounds the leg's amount or cost from the pinned one;
 * where no bound follows (the amount of a buy pinned on the cost side), that minimum is not used.
 */
export function underMinimum(venue: VenueCtx, spec: WalkSpec, left: number): boolean {
  const r = venue.rules;
  if (r === null) return false;
  const price = venue.levels!.price(0);
  const most = left * (1 + UNDER_MARGIN);
  let cost = Infinity;
  let base = Infinity;
  if (spec.side === 'buy') {
    if (spec.pinned === 'in') {
      cost = most / (1 + venue.fee);
      base = cost / price;
    } else base = most;
  } else if (spec.pinned === 'in') {
    base = most;
    cost = most * price;
  } else cost = most / (1 - venue.fee);
  return r.minCost > cost * (1 + UNDER_MARGIN) || r.minAmount > base * (1 + UNDER_MARGIN);
}

/** The leg is at or above its venue's minimum amount and cost: it can never be dropped. */
export function atMinimums(w: RuledFill): boolean {
  const r = w.venue.rules;
  return r === null || (w.base >= r.minAmount && w.cost >= r.minCost);
}
