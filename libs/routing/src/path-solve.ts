import type { MarketsView } from '@app/books';
import { hopContext, holding, type HopCtx } from './hop-context';
import { deliveries, solveHop, type HopOutcome } from './hop';
import { reached } from './numeric';
import type { Candidate } from './paths';
import type { CapOf } from './fill-value';
import type { RouteRequest, RoutingConfig, UnroutableReason } from './types';

/** A solved candidate path. `failedAt` is the index of the hop that could not be routed. */
export interface PathOutcome {
  readonly candidate: Candidate;
  readonly hops: readonly HopOutcome[];
  readonly reason: UnroutableReason | null;
  readonly failedAt: number | null;
  readonly amountIn: number;
  readonly amountOut: number;
  /** Every hop filled completely and the pinned amount was met. */
  readonly full: boolean;
  /** Set when hop 2 of a bridge could not absorb what hop 1 first delivered; null otherwise. */
  readonly trim: Trim | null;
}

/** A bridged path that hop 2 trimmed (docs/semantics.md section 8). */
export interface Trim {
  /** Hop 1's first solve, exact-in for the requested amount, met that amount. */
  readonly hop1Filled: boolean;
  /** What hop 1 first delivered, in the bridge asset. */
  readonly delivered: number;
  /** What hop 2 absorbed of it. */
  readonly absorbed: number;
  /** Trimming rounds kept (0 when re-solving hop 1 gave nothing better). */
  readonly rounds: number;
}

/** Trimming rounds for a bridged path whose funding moves with hop 1 (balances); see docs. */
const MAX_TRIM_ROUNDS = 3;

interface Env {
  readonly request: RouteRequest;
  readonly books: MarketsView;
  readonly now: number;
  readonly config: RoutingConfig;
}

function contexts(candidate: Candidate, env: Env): HopCtx[] {
  return candidate.steps.map((s) =>
    hopContext(s.symbol, s.from, env.request, env.books, env.now, env.config),
  );
}

/** Cap per venue from the request's balances of `asset`, plus what an earlier hop delivered there. */
function capFor(
  request: RouteRequest,
  asset: string,
  delivered: ReadonlyMap<string, number> | null,
): CapOf | null {
  const balances = request.balances;
  if (balances === null) return null;
  return (venue) => holding(balances, venue.exchangeId, asset) + (delivered?.get(venue.exchangeId) ?? 0);
}

function failed(candidate: Candidate, hops: HopOutcome[], at: number): PathOutcome {
  return {
    candidate,
    hops,
    reason: hops[at]!.reason,
    failedAt: at,
    amountIn: 0,
    amountOut: 0,
    full: false,
    trim: null,
  };
}

/** Solve a single-hop path with the request's pinned side. */
function solveDirect(candidate: Candidate, env: Env): PathOutcome {
  const [ctx] = contexts(candidate, env);
  const { request } = env;
  const h = solveHop(
    ctx!,
    { side: ctx!.side, pinned: request.exactSide, amount: request.amount },
    capFor(request, ctx!.inAsset, null),
    request,
  );
  if (h.reason !== null) return failed(candidate, [h], 0);
  const achieved = request.exactSide === 'in' ? h.amountIn : h.amountOut;
  return {
    candidate,
    hops: [h],
    reason: null,
    failedAt: null,
    amountIn: h.amountIn,
    amountOut: h.amountOut,
    // Under venue rules a hop meets its amount within the rounding dust (docs/semantics.md section 13).
    full: h.full && (ctx!.ruled || reached(achieved, request.amount)),
    trim: null,
  };
}

/**
 * Solve a bridged path (exact-in only) hop by hop (spec 4.1 rule 2): when hop 2 absorbs only part
 * of hop 1's output, hop 1 is re-solved as exact-out for what hop 2 absorbed, then hop 2 again.
 */
function solveBridged(candidate: Candidate, env: Env): PathOutcome {
  const [c1, c2] = contexts(candidate, env);
  const { request } = env;
  const cap1 = capFor(request, c1!.inAsset, null);
  let h1 = solveHop(c1!, { side: c1!.side, pinned: 'in', amount: request.amount }, cap1, request);
  if (h1.reason !== null) return failed(candidate, [h1], 0);
  let h2 = solveHop(
    c2!,
    { side: c2!.side, pinned: 'in', amount: h1.amountOut },
    capFor(request, c2!.inAsset, deliveries(h1)),
    request,
  );
  if (h2.reason !== null) return failed(candidate, [h1, h2], 1);
  // What the first pass found, before trimming replaces h1 and h2 (hop flags, docs section 8).
  const trimmed = !h2.full;
  const hop1Filled = h1.full;
  const delivered = h1.amountOut;
  const absorbed = h2.amountIn;
  let rounds = 0;
  for (let round = 0; round < MAX_TRIM_ROUNDS && !h2.full; round++) {
    const t1 = solveHop(c1!, { side: c1!.side, pinned: 'out', amount: h2.amountIn }, cap1, request);
    if (t1.reason !== null || t1.amountOut <= 0) break;
    // Venue rules can make hop 1 dearer for less: where the first pass bought, the amount hop 2
    // absorbed may be no whole number of steps or under the minimum, so the re-solve buys elsewhere
    // at a worse price. A re-solve that would spend more than the request is not taken
    // (docs/semantics.md section 8).
    if (t1.amountIn > request.amount) break;
    const t2 = solveHop(
      c2!,
      { side: c2!.side, pinned: 'in', amount: t1.amountOut },
      capFor(request, c2!.inAsset, deliveries(t1)),
      request,
    );
    if (t2.reason !== null) break;
    h1 = t1;
    h2 = t2;
    rounds++;
  }
  // Untrimmed, hop 1 is its first solve: met means met (exactly, or within the rounding dust of
  // venue rules). Trimmed, it must still have spent the whole amount.
  const full = h1.full && h2.full && (!trimmed || reached(h1.amountIn, request.amount));
  return {
    candidate,
    hops: [h1, h2],
    reason: null,
    failedAt: null,
    amountIn: h1.amountIn,
    amountOut: h2.amountOut,
    full,
    trim: trimmed ? { hop1Filled, delivered, absorbed, rounds } : null,
  };
}

/**
 * Whether hop `i` of a solved path could fill what it was asked for the requested amount: on a
 * trimmed bridge, hop 1 as its first solve found it and hop 2 never (its depth or funds ran out).
 */
export function hopFillable(o: PathOutcome, i: number): boolean {
  if (o.trim === null) return o.hops[i]!.full;
  return i === 0 ? o.trim.hop1Filled : false;
}

/** Solve one candidate path. */
export function solvePath(candidate: Candidate, env: Env): PathOutcome {
  return candidate.steps.length === 1 ? solveDirect(candidate, env) : solveBridged(candidate, env);
}
