import type { BenchRow } from './bench-row';
import { benchCheckCost } from './ingestor-check-cost';
import { benchCpu } from './ingestor-cpu';
import { benchUpdateCost } from './ingestor-update-cost';

/** The ingestor's figures for `npm run bench`. */
export async function benchIngestor(): Promise<BenchRow[]> {
  return [
    ...benchUpdateCost(),
    ...benchCheckCost(),
    // Checks off first: the first of these runs also pays the process's warm-up (heap growth).
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: false })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: true })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'okx', checks: true, everyMs: 0 })),
    ...(await benchCpu(60, 20, 10, 10_000, { protocol: 'bybit', checks: true })),
  ];
}
