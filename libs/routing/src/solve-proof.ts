import { eligible, outranks } from './choose';
import { BPS, pathScore } from './numeric';
import { hopFillable, type PathOutcome } from './path-solve';
import {
  PROOF_VERSION,
  type CandidateProof,
  type DecisionProof,
  type ScoreProof,
  type SolveProof,
} from './proof';
import { hopProof } from './proof-hop';
import { solveTraced, type Decision } from './solve';
import { SOLVER_VERSION, type RouteRequest, type RouteResult, type SolveInput } from './types';
import { recordWalks, type Fill, type WalkTape } from './walk';
import { readTape, type LevelTake } from './walk-tape';

/** A RouteResult and the proof of how that very solve reached it. */
export interface Explained {
  readonly result: RouteResult;
  readonly proof: SolveProof;
}

/**
 * Solve with the proof on: the same `solve` code runs while the walks record the levels they take
 * and the path choice hands over its candidates, scores and winner. The result is byte-identical to
 * `solve(input)`'s (tested); only this call pays for the recording.
 */
export function solveWithProof(input: SolveInput): Explained {
  const tape: WalkTape = [];
  const kept: { decision: Decision | null } = { decision: null };
  recordWalks(tape);
  let result: RouteResult;
  try {
    result = solveTraced(input, (d) => {
      kept.decision = d;
      // Every path is solved by now; the walks still to come (quotes, the best_single baseline
      // of savingVsBestSingleBps) are not part of the proof.
      recordWalks(null);
    });
  } finally {
    recordWalks(null);
  }
  if (kept.decision === null) throw new Error('solve returned without its decision');
  return { result, proof: buildProof(input, kept.decision, readTape(tape)) };
}

function buildProof(
  input: SolveInput,
  d: Decision,
  takes: ReadonlyMap<Fill, readonly LevelTake[]>,
): SolveProof {
  const { request, config, books } = input;
  const candidates = d.candidates.map((c, i): CandidateProof => {
    const o = d.outcomes[i] ?? null;
    const because = ineligibleBecause(o, request);
    return {
      index: i,
      pairs: c.steps.map((s) => s.symbol),
      bridge: c.bridge,
      solved: o !== null,
      unroutableReason: o?.reason ?? null,
      failedAtHop: o?.failedAt ?? null,
      amountIn: o?.amountIn ?? 0,
      amountOut: o !== null && o.reason === null ? o.amountOut : 0,
      fullyFillable: o !== null && o.reason === null && o.full,
      score: d.scores === null || o === null ? null : scoreProof(o, d.scores[i]!, request.hopPenaltyBps),
      eligible: because === null,
      ineligibleBecause: because,
      verdict: verdict(d, i, because === null),
      trim: o?.trim ? { ...o.trim } : null,
      hops:
        o === null
          ? []
          : o.hops.map((h, k) => hopProof(h, k, hopFillable(o, k), request.strategy, books, takes)),
    };
  });
  return {
    proofVersion: PROOF_VERSION,
    solverVersion: SOLVER_VERSION,
    requestId: request.requestId,
    calculatedAt: input.now,
    exactSide: request.exactSide,
    requestedAmount: request.amount,
    pinnedAsset: request.exactSide === 'in' ? request.from : request.to,
    config: {
      staleBookMs: config.staleBookMs,
      stalenessPenaltyBps: config.stalenessPenaltyBps,
      defaultTakerFeeRate: config.defaultTakerFeeRate,
    },
    hopPenaltyBps: request.hopPenaltyBps,
    requireFullFill: request.requireFullFill,
    candidates,
    decision: decision(d, request),
  };
}

/** Why `eligible` (choose.ts) said no, first reason first; null when it said yes. */
function ineligibleBecause(
  o: PathOutcome | null,
  request: RouteRequest,
): CandidateProof['ineligibleBecause'] {
  if (o === null) return 'not_solved';
  if (eligible(o, request)) return null;
  if (o.reason !== null) return 'unroutable';
  if (o.amountOut <= 0) return 'no_output';
  return 'not_fully_fillable';
}

function scoreProof(o: PathOutcome, score: number, hopPenaltyBps: number): ScoreProof {
  const hops = o.hops.length;
  const routed = o.reason === null;
  const steps: number[] = [];
  // pathScore itself for every prefix: the last step is bit-for-bit the score solve compared.
  if (routed) for (let k = 1; k <= hops; k++) steps.push(pathScore(o.amountOut, hopPenaltyBps, k));
  return {
    amountOut: routed ? o.amountOut : 0,
    hops,
    hopPenaltyBps,
    factor: 1 - hopPenaltyBps / BPS,
    steps,
    score,
  };
}

/** How candidate `i` fared against the winner under solve's order (score, then hops, then index). */
function verdict(d: Decision, i: number, isEligible: boolean): CandidateProof['verdict'] {
  if (i === d.winner) return 'chosen';
  if (!isEligible || d.scores === null || d.winner < 0) return 'ineligible';
  const w = d.scores[d.winner]!;
  const s = d.scores[i]!;
  if (w > s) return 'lower_score';
  return hopsOf(d, d.winner) < hopsOf(d, i) ? 'same_score_more_hops' : 'same_score_later';
}

function hopsOf(d: Decision, i: number): number {
  return d.outcomes[i]!.hops.length;
}

/** The winner, the runner-up (the same argmax over the rest) and the rule that separated them. */
function decision(d: Decision, request: RouteRequest): DecisionProof {
  const winner = d.winner >= 0 ? d.winner : null;
  const hopsFrom = d.shown >= 0 ? d.shown : null;
  const made = (rule: DecisionProof['rule'], runnerUp: number | null, marginBps: number | null) => ({
    winner,
    rule,
    runnerUp,
    marginBps,
    hopsFrom,
  });
  if (d.candidates.length === 0) return made('no_market', null, null);
  if (d.scores === null) return made('exact_out_direct_only', null, null);
  if (winner === null) return made('none_eligible', null, null);
  const scores = d.scores;
  let runnerUp = -1;
  for (let i = 0; i < d.outcomes.length; i++) {
    const o = d.outcomes[i]!;
    if (i === winner || !eligible(o, request)) continue;
    if (runnerUp < 0 || outranks(scores[i]!, o.hops.length, scores[runnerUp]!, hopsOf(d, runnerUp)))
      runnerUp = i;
  }
  if (runnerUp < 0) return made('only_eligible', null, null);
  const w = scores[winner]!;
  const r = scores[runnerUp]!;
  const rule =
    w > r ? 'higher_score' : hopsOf(d, winner) < hopsOf(d, runnerUp) ? 'fewer_hops' : 'earlier_candidate';
  return made(rule, runnerUp, (w / r - 1) * BPS);
}
