import type { QuoteRow } from './run-backtest';

/** One line of a report chart: saving vs best_single (bps) over time, one request, size and strategy. */
export interface SavingSeries {
  readonly label: string;
  readonly size: number;
  readonly strategy: string;
  /** [seconds since --from, bps]; null where the quote could not be compared (unroutable). */
  readonly points: readonly (readonly [number, number | null])[];
}

/** At most this many points per line in the report; longer runs are averaged into buckets. */
export const MAX_POINTS = 2000;

/**
 * Collects, per request, size and strategy other than best_single, the saving against
 * best_single at each instant: the strategies' amounts coincide to a few bps, so their
 * differences, not their levels, are what a chart can show.
 */
export class SeriesBuilder {
  private readonly lines = new Map<
    string,
    { label: string; size: number; strategy: string; pts: [number, number | null][] }
  >();

  constructor(private readonly from: number) {}

  add(r: QuoteRow): void {
    if (r.strategy === 'best_single') return;
    const k = `${r.label}\u0000${r.amount}\u0000${r.strategy}`;
    let line = this.lines.get(k);
    if (line === undefined)
      this.lines.set(k, (line = { label: r.label, size: r.amount, strategy: r.strategy, pts: [] }));
    line.pts.push([(r.at - this.from) / 1000, r.savingVsBestSingleBps]);
  }

  build(): SavingSeries[] {
    return [...this.lines.values()].map((l) => ({
      label: l.label,
      size: l.size,
      strategy: l.strategy,
      points: downsample(l.pts, MAX_POINTS),
    }));
  }
}

/** Mean of each of `max` equal buckets (nulls skipped; a bucket of nulls stays null). */
export function downsample(pts: readonly [number, number | null][], max: number): [number, number | null][] {
  if (pts.length <= max) return [...pts];
  const out: [number, number | null][] = [];
  const per = pts.length / max;
  for (let b = 0; b < max; b++) {
    const lo = Math.floor(b * per);
    const hi = Math.floor((b + 1) * per);
    let sum = 0;
    let n = 0;
    for (let i = lo; i < hi; i++) {
      const y = pts[i]![1];
      if (y !== null) {
        sum += y;
        n++;
      }
    }
    out.push([pts[lo]![0], n > 0 ? sum / n : null]);
  }
  return out;
}
