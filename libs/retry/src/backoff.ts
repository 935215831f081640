/** A ceiling doubling from initialMs up to maxMs; pauses are drawn under it (full jitter). */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** No pause shorter than this (default 0). */
  readonly floorMs?: number;
}

/** Uniform randomness in [0, 1) (Math.random in production, a seeded generator in tests). */
export type Random = () => number;

/**
 * The pause before retry `attempt` (0-based): "full jitter", uniform between 0 and the capped
 * exponential ceiling min(maxMs, initialMs * 2^attempt), so callers failing together (one network
 * outage, one broker restart) do not retry in step (Brooker, "Exponential Backoff And Jitter", AWS
 * Architecture Blog, 2015). Never less than `floorMs` (a Retry-After) nor the policy's floor.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: Random, floorMs = 0): number {
  return Math.max(floorMs, policy.floorMs ?? 0, Math.floor(random() * backoffCeiling(attempt, policy)));
}

/** The ceiling of retry `attempt`'s pause: min(maxMs, initialMs * 2^attempt). */
export function backoffCeiling(attempt: number, policy: BackoffPolicy): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(Math.max(attempt, 0), 30));
}

/**
 * The pauses of one loop that retries: each failure draws the next pause under a doubling ceiling,
 * a success starts over. For loops whose tries are not one call (a subscription that runs until it
 * fails, a queue drained batch after batch); a call retried as a whole takes `retry`.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: Random = Math.random,
  ) {}

  /** Failures since the last reset. */
  get attempt(): number {
    return this.failures;
  }

  /** A failure: the pause before the next try, never under `floorMs` (a pending Retry-After). */
  next(floorMs = 0): number {
    return backoffDelay(this.failures++, this.policy, this.random, floorMs);
  }

  /** A success: the next failure pauses as the first did. */
  reset(): void {
    this.failures = 0;
  }
}
