import type { QuoteDecay } from './quote-decay';

// The half-life of quotes (docs/explain.md section 3): how long until half of them no longer hold.

/** One group's decay: quotes of one pair and size. */
export interface DecaySummary {
  readonly quotes: number;
  /** Per horizon: how many quotes could be re-priced, the mean bps, and the share still holding. */
  readonly horizons: { afterMs: number; priced: number; meanBps: number | null; holding: number | null }[];
  /**
   * Ms until half the quotes no longer hold (re-priced more than `toleranceBps` worse than quoted):
   * interpolated exponentially between the horizons, the share at t = 0 being 1. Null when the
   * share stays above one half up to the last horizon priced, or nothing could be priced.
   */
  readonly halfLifeMs: number | null;
}

/** Summarise the decays of one group of quotes (same pair and size). */
export function decaySummary(decays: readonly QuoteDecay[], toleranceBps: number): DecaySummary {
  const horizons: DecaySummary['horizons'] = [];
  const afterMs = decays[0]?.points.map((p) => p.afterMs) ?? [];
  for (const [i, at] of afterMs.entries()) {
    const priced = decays.map((d) => d.points[i]?.bps).filter((b): b is number => typeof b === 'number');
    horizons.push({
      afterMs: at,
      priced: priced.length,
      meanBps: priced.length === 0 ? null : priced.reduce((s, b) => s + b, 0) / priced.length,
      holding: priced.length === 0 ? null : priced.filter((b) => b >= -toleranceBps).length / priced.length,
    });
  }
  return { quotes: decays.length, horizons, halfLifeMs: halfLife(horizons) };
}

function halfLife(horizons: DecaySummary['horizons']): number | null {
  let t0 = 0;
  let s0 = 1;
  for (const h of horizons) {
    if (h.holding === null) continue;
    if (h.holding <= 0.5) {
      // s(t) = s0 * (s1/s0)^((t - t0)/(t1 - t0)); solve s(t) = 1/2. A share of 0 is taken as reached at t1.
      if (h.holding === 0 || h.holding === s0) return h.afterMs;
      return t0 + ((h.afterMs - t0) * Math.log(0.5 / s0)) / Math.log(h.holding / s0);
    }
    t0 = h.afterMs;
    s0 = h.holding;
  }
  return null;
}
