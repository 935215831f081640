/**
 * The numeric policy of the solver in one place (docs/semantics.md "Numbers").
 * Amounts are IEEE doubles, never rounded on output; sums run in a fixed order so that the same
 * inputs give the same bits.
 */

/** Relative tolerance under which a residual counts as filled (float dust of a walk). */
export const FILL_EPS = 1e-12;

/** Basis points per unit. */
export const BPS = 10_000;

/** Staleness markdown fraction s for a book of `ageMs` (clarifications 3). */
export function stalenessFraction(penaltyBps: number, ageMs: number): number {
  return (penaltyBps * Math.sqrt(Math.max(0, ageMs) / 1000)) / BPS;
}

/** score = amountOut * (1 - hopPenaltyBps/10000)^(hops-1), by repeated multiplication. */
export function pathScore(amountOut: number, hopPenaltyBps: number, hops: number): number {
  let score = amountOut;
  const factor = 1 - hopPenaltyBps / BPS;
  for (let i = 1; i < hops; i++) score *= factor;
  return score;
}

/** True when `achieved` reaches `target` up to float dust. */
export function reached(achieved: number, target: number): boolean {
  return achieved >= target * (1 - FILL_EPS);
}
