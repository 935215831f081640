/** Re-subscription backoff: a ceiling doubling from initialMs up to maxMs. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** Uniform randomness in [0, 1) (Math.random in production, a seeded generator in tests). */
export type Random = () => number;

/**
 * The pause before attempt `attempt` (0-based): "full jitter", uniform between 0 and the capped
 * exponential ceiling min(maxMs, initialMs * 2^attempt), so venues failing together (one network
 * outage) do not retry in step (Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog,
 * 2015). Never less than `floorMs` (a venue's Retry-After).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: Random, floorMs = 0): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.max(floorMs, Math.floor(random() * ceiling));
}

/** A small deterministic generator (mulberry32) for tests and benches that inject randomness. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
