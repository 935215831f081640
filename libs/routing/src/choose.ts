import type { PathOutcome } from './path-solve';
import type { RouteRequest } from './types';

// The path choice (docs/semantics.md section 7), shared by solve and the proof that explains it.

/** Whether a solved path may win: routed, some output, and full when requireFullFill. */
export function eligible(o: PathOutcome, request: RouteRequest): boolean {
  return o.reason === null && o.amountOut > 0 && (!request.requireFullFill || o.full);
}

/**
 * Whether a path scoring `score` over `hops` hops beats the best so far: a higher score, or the
 * same score over fewer hops. Equal on both keeps the best so far, i.e. the earlier candidate.
 */
export function outranks(score: number, hops: number, bestScore: number, bestHops: number): boolean {
  return score > bestScore || (score === bestScore && hops < bestHops);
}

/** The candidate whose reason an unroutable result reports: the direct path, else the bridge that got furthest (earliest on ties). */
export function blamed(outcomes: readonly PathOutcome[]): number {
  const direct = outcomes.findIndex((o) => o.candidate.bridge === null);
  if (direct >= 0) return direct;
  let furthest = 0;
  for (let i = 1; i < outcomes.length; i++)
    if ((outcomes[i]!.failedAt ?? 0) > (outcomes[furthest]!.failedAt ?? 0)) furthest = i;
  return furthest;
}

/** Hops an unroutable result shows of its blamed path: those before a bridge's failing hop. */
export function hopsShown(o: PathOutcome): number {
  return o.candidate.bridge !== null && (o.failedAt ?? 0) >= 1 ? o.failedAt! : 0;
}
