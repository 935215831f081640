import { byCodeUnit } from '@app/events';
import { hopBody, strategyOptions, type HopOutcome } from './hop';
import { blamed, eligible, hopsShown, outranks } from './choose';
import { UNCAPPED } from './fill-value';
import { BPS, pathScore } from './numeric';
import { candidates, type Candidate } from './paths';
import { hopFillable, solvePath, type PathOutcome } from './path-solve';
import { solveHopWalk } from './strategies';
import type { Hop, PathConsidered, RouteRequest, RouteResult, SolveInput, UnroutableReason } from './types';

/** Quote a route (spec 2.1-2.6a, 4.1; clarifications 1-8). Pure: time and config are arguments. */
export function solve(input: SolveInput): RouteResult {
  return solveTraced(input, null);
}

/** What a solve decided, handed to a proof (solve-proof.ts). */
export interface Decision {
  readonly candidates: readonly Candidate[];
  /** Index-aligned with `candidates`; null where exact-out did not solve the path. */
  readonly outcomes: readonly (PathOutcome | null)[];
  /** The scores solve compared; null for exact-out (the direct market only, nothing scored). */
  readonly scores: readonly number[] | null;
  /** Index of the chosen candidate; -1 when none routed. */
  readonly winner: number;
  /** The candidate whose hops the result shows (the winner, or a bridge failing mid-route); -1 none. */
  readonly shown: number;
}

/** `solve`, handing its decision to `keep`; the plain path passes null and pays nothing. */
export function solveTraced(input: SolveInput, keep: ((d: Decision) => void) | null): RouteResult {
  const { request, books } = input;
  const cands = candidates(request, books);
  const direct = cands.find((c) => c.bridge === null);
  if (request.exactSide === 'out') {
    if (direct === undefined) {
      if (keep !== null) keep(exactOutDecision(cands, null));
      return unrouted(
        input,
        cands.length > 0 ? 'exact_out_multi_hop_unsupported' : 'no_market',
        [],
        null,
        [],
      );
    }
    const outcome = solvePath(direct, input);
    if (keep !== null) keep(exactOutDecision(cands, outcome));
    return outcome.reason === null
      ? routed(input, outcome, [])
      : unrouted(input, outcome.reason, [], null, []);
  }
  if (cands.length === 0) {
    if (keep !== null) keep({ candidates: cands, outcomes: [], scores: [], winner: -1, shown: -1 });
    return unrouted(input, 'no_market', [], null, []);
  }
  const outcomes = cands.map((c) => solvePath(c, input));
  const scores = outcomes.map((o) =>
    o.reason === null ? pathScore(o.amountOut, request.hopPenaltyBps, o.hops.length) : 0,
  );
  let winner = -1;
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    if (!eligible(o, request)) continue;
    if (winner < 0 || outranks(scores[i]!, o.hops.length, scores[winner]!, outcomes[winner]!.hops.length))
      winner = i;
  }
  const considered =
    cands.length > 1 ? outcomes.map((o, i) => pathConsidered(o, scores[i]!, i === winner)) : [];
  if (winner >= 0) {
    if (keep !== null) keep({ candidates: cands, outcomes, scores, winner, shown: winner });
    return routed(input, outcomes[winner]!, considered);
  }
  const b = blamed(outcomes);
  if (keep !== null) {
    const shown = hopsShown(outcomes[b]!) > 0 ? b : -1;
    keep({ candidates: cands, outcomes, scores, winner, shown });
  }
  return failure(input, outcomes[b]!, considered);
}

function exactOutDecision(cands: readonly Candidate[], direct: PathOutcome | null): Decision {
  const ok = direct !== null && direct.reason === null;
  const at = direct === null ? -1 : cands.indexOf(direct.candidate);
  return {
    candidates: cands,
    outcomes: cands.map((c) => (direct !== null && c === direct.candidate ? direct : null)),
    scores: null,
    winner: ok ? at : -1,
    shown: ok ? at : -1,
  };
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

/** Every candidate failed: the blamed path's reason, and its hops before a mid-route failure (clarifications 5). */
function failure(input: SolveInput, blamedPath: PathOutcome, considered: PathConsidered[]): RouteResult {
  const k = hopsShown(blamedPath);
  const solved = k >= 1 ? blamedPath.hops.slice(0, k).map((h) => hopBody(h, input.request)) : [];
  return unrouted(
    input,
    blamedPath.reason ?? 'no_liquidity',
    solved,
    k >= 1 ? k : null,
    considered,
    k >= 1 ? blamedPath.candidate : null,
  );
}

/** The allowlist echoed sorted, or null when unrestricted. */
function exchangesFilter(request: RouteRequest): string[] | null {
  return request.exchanges === null ? null : [...request.exchanges].sort(byCodeUnit);
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
  // Met within the rounding dust of venue rules (docs/semantics.md section 13): the shortfall is
  // reported, but it is neither a partial fill nor a warning. Without rules met means exactly met.
  const dust = outcome.full && achieved < request.amount && outcome.hops.some((h) => h.ctx.ruled);
  const fillRatio = outcome.full && !dust ? 1 : achieved / request.amount;
  const effectiveRate = outcome.amountOut / outcome.amountIn;
  const referenceRate = routeReferenceRate(hops);
  const warnings: string[] = [];
  if (outcome.candidate.bridge !== null) warnings.push(multiHopWarning(outcome.candidate));
  if (fillRatio < 1 && !outcome.full) {
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
    unfilledAmount: outcome.full && !dust ? 0 : Math.max(0, request.amount - achieved),
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
    hop.capOf ?? UNCAPPED,
    strategyOptions(request, 'best_single'),
  );
  const fill = single.fills[0];
  if (fill === undefined) return null;
  const f = fill.venue.fee;
  const inAmt = hop.ctx.side === 'buy' ? fill.cost * (1 + f) : fill.base;
  const outAmt = hop.ctx.side === 'buy' ? fill.base : fill.cost * (1 - f);
  return (effectiveRate / (outAmt / inAmt) - 1) * BPS;
}
