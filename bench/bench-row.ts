import { getHeapStatistics } from 'node:v8';

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

/**
 * Bytes allocated by one call: the median growth of V8's used heap across single calls, leaving
 * out calls during which a scavenge shrank it, less the same figure for an empty call.
 */
export function bytesPerCall(fn: () => unknown, calls = 400): number {
  const median = (f: () => unknown): number => {
    const deltas: number[] = [];
    for (let i = 0; i < calls; i++) {
      const before = getHeapStatistics().used_heap_size;
      f();
      const after = getHeapStatistics().used_heap_size;
      if (after >= before) deltas.push(after - before);
    }
    return quantile(deltas, 0.5);
  };
  return median(fn) - median(() => undefined);
}
