/** One benchmark figure; `npm run bench -- --json` prints one per line. */
export interface BenchRow {
  readonly scenario: string;
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
}

/** The q-quantile (0..1) of `samples` by nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

/** Wall time of `fn` in milliseconds (high resolution). */
export function timeMs(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
