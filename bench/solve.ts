import { BookCache } from '@app/books';
import { routeRequest } from '@app/request';
import { DEFAULT_ROUTING_CONFIG, solve, type RouteRequest } from '@app/routing';
import { bytesPerCall, quantile, type BenchRow } from './bench-row';
import { benchSnapshots } from './market-gen';
import { SYNTH_EPOCH as T0 } from '@app/synth';

const NOW = T0;

/** A bridged split_optimal request with quotes, as issue 2's `solve` scenario specifies. */
export const BENCH_REQUEST: RouteRequest = routeRequest({
  requestId: 'bench',
  from: 'ETH',
  to: 'USDT',
  amount: 50,
  strategy: 'split_optimal',
});

/** Scenario `solve`: 60 venues x 6 markets x 1,000 levels per side, one bridged request. */
export function benchSolve(iterations = 3000): BenchRow[] {
  const cache = new BookCache();
  for (const r of benchSnapshots(60, 1000, NOW)) cache.apply(r);
  const input = { request: BENCH_REQUEST, books: cache, now: NOW, config: DEFAULT_ROUTING_CONFIG };
  const first = solve(input);
  if (first.unroutableReason !== null || first.pathsConsidered.length !== 3)
    throw new Error('bench request is not the bridged shape it should be');
  for (let i = 0; i < 300; i++) solve(input);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    solve(input);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const legs = first.hops.reduce((n, h) => n + h.legs.length, 0);
  return [
    { scenario: 'solve', metric: 'p50', value: quantile(samples, 0.5), unit: 'ms' },
    { scenario: 'solve', metric: 'p99', value: quantile(samples, 0.99), unit: 'ms' },
    { scenario: 'solve', metric: 'paths', value: first.pathsConsidered.length, unit: 'count' },
    { scenario: 'solve', metric: 'legs', value: legs, unit: 'count' },
    { scenario: 'solve', metric: 'allocation', value: bytesPerCall(() => solve(input)), unit: 'bytes' },
  ];
}
