import type { HopCtx, VenueCtx } from './hop-context';
import { BPS, reached } from './numeric';
import { byLegOrder, totalPinned, UNCAPPED, type CapOf, type StrategyOptions } from './fill-value';
import { solveHopWalk } from './strategies';
import type { Hop, Leg, Quote, RouteRequest, Strategy, UnroutableReason } from './types';
import { allStepped, executable, sumBase } from './order-steps';
import { walkVenue, type Fill, type WalkResult, type WalkSpec } from './walk';
import { quoteLeg, quoteVenueRuled } from './walk-rules';

/** A solved hop: the hop body, or why it could not be routed. */
export interface HopOutcome {
  readonly ctx: HopCtx;
  readonly spec: WalkSpec;
  readonly reason: UnroutableReason | null;
  readonly walk: WalkResult;
  /** The pinned amount was met. */
  readonly full: boolean;
  readonly amountIn: number;
  readonly amountOut: number;
  /** Funding caps the hop was solved with; null when unconstrained. */
  readonly capOf: CapOf | null;
}

export function strategyOptions(
  request: RouteRequest,
  strategy: Strategy = request.strategy,
): StrategyOptions {
  return {
    strategy,
    maxVenues: request.maxVenues,
    minLegNotional: request.minLegNotional,
    balancesInPlay: request.balances !== null,
  };
}

/** Solve one hop: filters, freshness, strategy, floor, balances and the refusals they imply. */
export function solveHop(
  ctx: HopCtx,
  spec: WalkSpec,
  capOf: CapOf | null,
  request: RouteRequest,
): HopOutcome {
  const empty: WalkResult = { fills: [], full: false };
  if (ctx.venues.length === 0) return outcome(ctx, spec, 'no_venues_matched_filter', empty, capOf);
  if (ctx.fresh.length === 0) return outcome(ctx, spec, 'all_books_stale', empty, capOf);
  const opts = strategyOptions(request);
  const walk = solveHopWalk(ctx.fresh, spec, capOf ?? UNCAPPED, opts);
  let balanceShort = false;
  if (capOf !== null && !walk.full) {
    const free = solveHopWalk(ctx.fresh, spec, UNCAPPED, opts);
    balanceShort = free.full || totalPinned(free, spec) > totalPinned(walk, spec) * (1 + 1e-12);
  }
  if (walk.fills.length === 0)
    return outcome(ctx, spec, balanceShort ? 'insufficient_balance' : 'no_liquidity', walk, capOf);
  if (!walk.full) {
    if (balanceShort && (request.balanceMode === 'require' || request.requireFullFill)) {
      return outcome(ctx, spec, 'insufficient_balance', walk, capOf);
    }
    if (request.requireFullFill) return outcome(ctx, spec, 'insufficient_depth', walk, capOf);
  }
  return outcome(ctx, spec, null, walk, capOf);
}

function outcome(
  ctx: HopCtx,
  spec: WalkSpec,
  reason: UnroutableReason | null,
  walk: WalkResult,
  capOf: CapOf | null,
): HopOutcome {
  if (ctx.ruled) return ruledOutcome(ctx, spec, reason, walk, capOf);
  let base = 0;
  let value = 0; // quote after fees: spent on a buy, received on a sell
  for (const fill of walk.fills) {
    base += fill.base;
    value += ctx.side === 'buy' ? fill.cost * (1 + fill.venue.fee) : fill.cost * (1 - fill.venue.fee);
  }
  const full = walk.full || (walk.fills.length > 0 && reached(totalPinned(walk, spec), spec.amount));
  let amountIn = ctx.side === 'buy' ? value : base;
  let amountOut = ctx.side === 'buy' ? base : value;
  // A met pinned amount is exactly the amount asked: float dust never turns into a partial fill.
  if (full && spec.pinned === 'in') amountIn = spec.amount;
  if (full && spec.pinned === 'out') amountOut = spec.amount;
  return { ctx, spec, reason, walk, full, amountIn, amountOut, capOf };
}

/**
 * A hop solved under venue rules (docs/semantics.md section 13): its amounts are the sums of its
 * legs, the base side exactly (whole steps); a pinned amount met within the rounding dust is
 * reported as what the legs achieve. Only float dust on a float sum snaps to the amount asked.
 */
function ruledOutcome(
  ctx: HopCtx,
  spec: WalkSpec,
  reason: UnroutableReason | null,
  walk: WalkResult,
  capOf: CapOf | null,
): HopOutcome {
  let value = 0;
  for (const fill of walk.fills)
    value += ctx.side === 'buy' ? fill.cost * (1 + fill.venue.fee) : fill.cost * (1 - fill.venue.fee);
  const base = sumBase(walk.fills);
  const full = walk.full || (walk.fills.length > 0 && reached(totalPinned(walk, spec), spec.amount));
  let amountIn = ctx.side === 'buy' ? value : base;
  let amountOut = ctx.side === 'buy' ? base : value;
  const pinnedIsBase = (spec.pinned === 'in') === (ctx.side === 'sell');
  // A base sum of whole steps alone is exact: it is what the legs achieve, never snapped.
  if (full && !(pinnedIsBase && allStepped(walk.fills))) {
    const achieved = spec.pinned === 'in' ? amountIn : amountOut;
    if (reached(achieved, spec.amount) && achieved !== spec.amount) {
      if (spec.pinned === 'in') amountIn = spec.amount;
      else amountOut = spec.amount;
    }
  }
  return { ctx, spec, reason, walk, full, amountIn, amountOut, capOf };
}

/** What each venue delivered of the hop's output asset (funds hop 2 of a bridge on that venue). */
export function deliveries(o: HopOutcome): Map<string, number> {
  const out = new Map<string, number>();
  for (const fill of o.walk.fills) {
    out.set(fill.venue.exchangeId, o.ctx.side === 'buy' ? fill.base : fill.cost * (1 - fill.venue.fee));
  }
  return out;
}

/** Best fee- and staleness-adjusted top-of-book price over fresh venues (clarifications 6). */
export function referencePrice(ctx: HopCtx): number | null {
  let ref: number | null = null;
  for (const v of ctx.fresh) {
    if (v.levels === null || v.levels.count === 0) continue;
    const p = v.levels.price(0) * v.rankMul;
    if (ref === null || (ctx.side === 'buy' ? p < ref : p > ref)) ref = p;
  }
  return ref;
}

/** A leg of the Hop body (spec 2.2). */
export function leg(fill: Fill, side: 'buy' | 'sell', withBalances: boolean): Leg {
  const f = fill.venue.fee;
  const averagePrice = fill.cost / fill.base;
  const l: Leg = {
    exchangeId: fill.venue.exchangeId,
    amount: fill.base,
    averagePrice,
    takerFeeRate: fill.venue.takerFeeRate,
    feeCost: fill.cost * f,
    effectivePrice: side === 'buy' ? averagePrice * (1 + f) : averagePrice * (1 - f),
  };
  if (withBalances) l.balanceLimited = fill.capLimited;
  return l;
}

function quote(venue: VenueCtx, ctx: HopCtx, spec: WalkSpec): Quote {
  let base = 0;
  let cost = 0;
  let full: boolean;
  if (venue.rules === null) {
    const r = walkVenue(venue, spec, Infinity);
    const fill = r.fills[0];
    if (fill !== undefined) {
      base = fill.base;
      cost = fill.cost;
    }
    full = r.full;
  } else {
    // The leg is read at once: quoteLeg serves every quote.
    full = quoteVenueRuled(venue, spec);
    if (quoteLeg.base > 0) {
      // Under its rules a venue quotes what it could execute: nothing when that is under its minimum.
      if (executable(venue.rules, quoteLeg)) {
        base = quoteLeg.base;
        cost = quoteLeg.cost;
      } else full = false;
    }
  }
  const averagePrice = base > 0 ? cost / base : null;
  return {
    exchangeId: venue.exchangeId,
    side: ctx.side,
    requestedAmount: spec.amount,
    filledAmount: base,
    averagePrice,
    effectivePriceWithFee: averagePrice === null ? null : averagePrice * venue.rankMul,
    takerFeeRate: venue.takerFeeRate,
    fullyFillable: full,
    bookAgeMs: venue.ageMs,
  };
}

/** The Hop body of a solved hop (spec 2.2); `fullyFillable` comes from its path (hopFillable). */
export function hopBody(o: HopOutcome, request: RouteRequest, fullyFillable: boolean = o.full): Hop {
  const { ctx } = o;
  const fills = [...o.walk.fills].sort(byLegOrder);
  const legs = fills.map((f) => leg(f, ctx.side, request.balances !== null));
  let feeCost = 0;
  let base = 0;
  let adjusted = 0;
  for (const f of fills) {
    feeCost += f.cost * f.venue.fee;
    base += f.base;
    adjusted += f.cost * f.venue.rankMul;
  }
  const ref = referencePrice(ctx);
  let impactBps: number | null = null;
  if (ref !== null && base > 0) {
    const exec = adjusted / base;
    impactBps = ctx.side === 'buy' ? (exec / ref - 1) * BPS : (1 - exec / ref) * BPS;
  }
  const hop: Hop = {
    pair: ctx.symbol,
    side: ctx.side,
    base: ctx.base,
    quote: ctx.quote,
    amountIn: o.amountIn,
    amountOut: o.amountOut,
    legs,
    feeCost,
    feeCurrency: ctx.quote,
    fullyFillable,
    referencePrice: ref,
    impactBps,
    venueCount: ctx.venues.length,
    freshVenueCount: ctx.fresh.length,
  };
  if (request.includeQuotes) hop.quotes = ctx.venues.map((v) => quote(v, ctx, o.spec));
  return hop;
}
