/**
 * The fixed instant synthetic data and test fixtures are stamped relative to (2026-08-09), so the
 * same inputs give the same bytes whenever they are made.
 */
export const SYNTH_EPOCH = 1_786_309_548_000;

/** A seeded random source: uniform in [0, 1). Deterministic: the same seed gives the same stream. */
export type Random = () => number;

/** mulberry32 (also the benchmarks' generators): tiny, fast and good enough for synthetic markets. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draw (Box-Muller; one value per call keeps the stream simple to reason about). */
export function gaussian(rand: Random): number {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** Exponential draw with mean `mean`. */
export function exponential(rand: Random, mean: number): number {
  return -Math.log(1 - rand()) * mean;
}

/** Uniform integer in [lo, hi]. */
export function between(rand: Random, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}
