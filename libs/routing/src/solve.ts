import { hopBody, strategyOptions, type HopOutcome } from './hop';
import { BPS, pathScore } from './numeric';
import { candidates, type Candidate } from './paths';
import { hopFillable, solvePath, type PathOutcome } from './path-solve';
import { solveHopWalk } from './strategies';
import type { Hop, PathConsidered, RouteRequest, RouteResult, SolveInput, UnroutableReason } from './types';

/** Quote a route (spec 2.1-2.6a, 4.1; clarifications 1-8). Pure: time and config are arguments. */
export function solve(input: SolveInput): RouteResult {
  const { request, books } = input;
  const cands = candidates(request, books);
  const direct = cands.find((c) => c.bridge === null);
  if (request.exactSide === 'out') {
    if (direct === undefined) {
      return unrouted(
        input,
        cands.length > 0 ? 'exact_out_multi_hop_unsupported' : 'no_market',
        [],
        null,
        [],
      );
    }
    const outcome = solvePath(direct, input);
    return outcome.reason === null
      ? routed(input, outcome, [])
      : unrouted(input, outcome.reason, [], null, []);
  }
  if (cands.length === 0) return unrouted(input, 'no_market', [], null, []);
  const outcomes = cands.map((c) => solvePath(c, input));
  const scores = outcomes.map((o) =>
    o.reason === null ? pathScore(o.amountOut, request.hopPenaltyBps, o.hops.length) : 0,
  );
  let winner = -1;
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    if (o.reason !== null || o.amountOut <= 0 || (request.requireFullFill && !o.full)) continue;
    if (winner < 0) {
      winner = i;
      continue;
    }
    const best = outcomes[winner]!;
    // Highest score; ties to fewer hops, then to the earlier candidate (kept by strict comparison).
    if (scores[i]! > scores[winner]! || (scores[i] === scores[winner] && o.hops.length < best.hops.length))
      winner = i;
  }
  const considered =
    cands.length > 1 ? outcomes.map((o, i) => pathConsidered(o, scores[i]!, i === winner)) : [];
  if (winner >= 0) return routed(input, outcomes[winner]!, considered);
  return failure(input, outcomes, considered);
}

function pathConsidered(o: PathOutcome, score: number, chosen: boolean): PathConsidered {
  return {
    pairs: o.candidate.steps.map((s) => s.symbol),
    bridge: o.candidate.bridge,
    amountOut: o.reason === null ? o.amountOut : 0,
    fullyFillable: o.reason === null && o.full,
    score,
    chosen,
  };
}

/** Every candidate failed: the direct path's reason, else the bridge that got furthest (clarifications 5). */
function failure(input: SolveInput, outcomes: PathOutcome[], considered: PathConsidered[]): RouteResult {
  const direct = outcomes.find((o) => o.candidate.bridge === null);
  if (direct !== undefined) return unrouted(input, direct.reason ?? 'no_liquidity', [], null, considered);
  let furthest = outcomes[0]!;
  for (const o of outcomes) if ((o.failedAt ?? 0) > (furthest.failedAt ?? 0)) furthest = o;
  const k = furthest.failedAt ?? 0;
  const solved = k >= 1 ? furthest.hops.slice(0, k).map((h) => hopBody(h, input.request)) : [];
  return unrouted(
    input,
    furthest.reason ?? 'no_liquidity',
    solved,
    k >= 1 ? k : null,
    considered,
    k >= 1 ? furthest.candidate : null,
  );
}

/** The allowlist echoed sorted, or null when unrestricted. */
function exchangesFilter(request: RouteRequest): string[] | null {
  return request.exchanges === null
    ? null
    : [...request.exchanges].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function multiHopWarning(candidate: Candidate): string {
  return `multi_hop: converts through ${candidate.bridge} over ${candidate.steps.map((s) => s.symbol).join(' then ')}; the hops are solved and must be executed one after the other`;
}

// Results are written as one literal with every field in spec order (no spreads): every result
// then shares one hidden class and dies young, instead of each getting its own map and being
// promoted by the scavenger (that was most of the API's GC pauses).

/** Spec 2.6a: empty hops (or the hops solved before a mid-route failure), zero amounts. */
function unrouted(
  input: SolveInput,
  reason: UnroutableReason,
  hops: Hop[],
  hopIndex: number | null,
  considered: PathConsidered[],
  bridged: Candidate | null = null,
): RouteResult {
  const { request, config } = input;
  const warnings: string[] = [];
  if (bridged !== null) warnings.push(multiHopWarning(bridged));
  warnings.push(`partial_fill: nothing could be routed (${reason})`);
  return {
    requestId: input.request.requestId,
    calculatedAt: input.now,
    calculatedAtIso: new Date(input.now).toISOString(),
    from: input.request.from,
    to: input.request.to,
    amountIn: 0,
    amountOut: 0,
    requestedAmount: request.amount,
    exactSide: request.exactSide,
    effectiveRate: null,
    referenceRate: null,
    impactBps: null,
    hops,
    fullyFillable: false,
    fillRatio: 0,
    unfilledAmount: request.amount,
    unroutableReason: reason,
    unroutableHopIndex: hopIndex,
    warnings,
    savingVsBestSingleBps: null,
    pathsConsidered: considered,
    strategy: request.strategy,
    includeFees: request.includeFees,
    exchangesFilter: exchangesFilter(request),
    certifiedOnly: request.certifiedOnly,
    staleBookMs: config.staleBookMs,
    stalenessPenaltyBps: config.stalenessPenaltyBps,
    hopPenaltyBps: request.hopPenaltyBps,
    requireFullFill: request.requireFullFill,
  };
}

/** Reference rate of a hop in output per input: 1/referencePrice on a buy, referencePrice on a sell. */
function routeReferenceRate(hops: Hop[]): number | null {
  let rate = 1;
  for (const h of hops) {
    if (h.referencePrice === null) return null;
    rate *= h.side === 'buy' ? 1 / h.referencePrice : h.referencePrice;
  }
  return rate;
}

function routed(input: SolveInput, outcome: PathOutcome, considered: PathConsidered[]): RouteResult {
  const { request, config } = input;
  const hops = outcome.hops.map((h, i) => hopBody(h, request, hopFillable(outcome, i)));
  const achieved = request.exactSide === 'in' ? outcome.amountIn : outcome.amountOut;
  const fillRatio = outcome.full ? 1 : achieved / request.amount;
  const effectiveRate = outcome.amountOut / outcome.amountIn;
  const referenceRate = routeReferenceRate(hops);
  const warnings: string[] = [];
  if (outcome.candidate.bridge !== null) warnings.push(multiHopWarning(outcome.candidate));
  if (fillRatio < 1) {
    const asset = request.exactSide === 'in' ? request.from : request.to;
    warnings.push(
      `partial_fill: only ${achieved} of ${request.amount} ${asset} could be routed; effectiveRate covers the filled part`,
    );
  }
  return {
    requestId: input.request.requestId,
    calculatedAt: input.now,
    calculatedAtIso: new Date(input.now).toISOString(),
    from: input.request.from,
    to: input.request.to,
    amountIn: outcome.amountIn,
    amountOut: outcome.amountOut,
    requestedAmount: request.amount,
    exactSide: request.exactSide,
    effectiveRate,
    referenceRate,
    impactBps: referenceRate === null ? null : (1 - effectiveRate / referenceRate) * BPS,
    hops,
    fullyFillable: outcome.full && hops.every((h) => h.fullyFillable),
    fillRatio,
    unfilledAmount: outcome.full ? 0 : Math.max(0, request.amount - achieved),
    unroutableReason: null,
    unroutableHopIndex: null,
    warnings,
    savingVsBestSingleBps: savingVsBestSingle(request, outcome, effectiveRate),
    pathsConsidered: considered,
    strategy: request.strategy,
    includeFees: request.includeFees,
    exchangesFilter: exchangesFilter(request),
    certifiedOnly: request.certifiedOnly,
    staleBookMs: config.staleBookMs,
    stalenessPenaltyBps: config.stalenessPenaltyBps,
    hopPenaltyBps: request.hopPenaltyBps,
    requireFullFill: request.requireFullFill,
  };
}

/**
 * (effectiveRate_split / effectiveRate_bestSingle - 1) * 10000 on single-hop routes; 0 for
 * best_single; null on multi-hop routes and when quotes are off (the baseline is not computed).
 */
function savingVsBestSingle(
  request: RouteRequest,
  outcome: PathOutcome,
  effectiveRate: number,
): number | null {
  if (outcome.hops.length !== 1) return null;
  if (request.strategy === 'best_single') return 0;
  if (!request.includeQuotes) return null;
  const hop: HopOutcome = outcome.hops[0]!;
  const single = solveHopWalk(
    hop.ctx.fresh,
    hop.spec,
    hop.capOf ?? (() => Infinity),
    strategyOptions(request, 'best_single'),
  );
  const fill = single.fills[0];
  if (fill === undefined) return null;
  const f = fill.venue.fee;
  const inAmt = hop.ctx.side === 'buy' ? fill.cost * (1 + f) : fill.base;
  const outAmt = hop.ctx.side === 'buy' ? fill.base : fill.cost * (1 - f);
  return (effectiveRate / (outAmt / inAmt) - 1) * BPS;
}
