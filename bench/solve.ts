import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solve, type RouteRequest, type RouteResult, type SolveInput } from '@app/routing';
import { bytesPerCall, quantile, type BenchRow } from './bench-row';
import { BENCH_RULES, benchSnapshots } from './market-gen';
import { benchSolveShapes } from './solve-shapes';
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

/**
 * Scenario `solve`: 60 venues x 6 markets x 1,000 levels per side, one bridged request; then the
 * same with order rules on every market against none, interleaved; then request shapes across
 * strategies, sizes and venue counts on those books and the demo's (solve-shapes.ts).
 */
export async function benchSolve(iterations = 3000, baseline: string | null = null): Promise<BenchRow[]> {
  const cache = new BookCache();
  for (const r of benchSnapshots(60, 1000, NOW)) cache.apply(r);
  const input = { request: BENCH_REQUEST, books: cache, now: NOW, config: SERVER_DEFAULTS.routing };
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
  return [...rows(samples, first, input), ...benchRulesAB(iterations), ...(await benchSolveShapes(baseline))];
}

function rows(samples: number[], first: RouteResult, input: SolveInput): BenchRow[] {
  const legs = first.hops.reduce((n, h) => n + h.legs.length, 0);
  return [
    { scenario: 'solve', metric: 'p50', value: quantile(samples, 0.5), unit: 'ms' },
    { scenario: 'solve', metric: 'p99', value: quantile(samples, 0.99), unit: 'ms' },
    { scenario: 'solve', metric: 'paths', value: first.pathsConsidered.length, unit: 'count' },
    { scenario: 'solve', metric: 'legs', value: legs, unit: 'count' },
    { scenario: 'solve', metric: 'allocation', value: bytesPerCall(() => solve(input)), unit: 'bytes' },
  ];
}

/** The bench market's records with every market record carrying BENCH_RULES. */
function withRules(records: readonly EventRecord[]): EventRecord[] {
  return records.map((r) =>
    r.type === 'market' ? { ...r, ...BENCH_RULES[r.symbol], receivedAt: r.receivedAt } : r,
  );
}

/**
 * The same scenario with order rules on every market against none, interleaved (one solve of
 * each per round, the order alternating) so that both see the same machine load.
 */
function benchRulesAB(iterations: number): BenchRow[] {
  const plain = new BookCache();
  const ruled = new BookCache();
  const records = benchSnapshots(60, 1000, NOW);
  for (const r of records) plain.apply(r);
  for (const r of withRules(records)) ruled.apply(r);
  const a = { request: BENCH_REQUEST, books: plain, now: NOW, config: SERVER_DEFAULTS.routing };
  const b = { ...a, books: ruled };
  const ruledFirst = solve(b);
  if (ruledFirst.unroutableReason !== null || ruledFirst.hops.some((h) => h.legs.length === 0))
    throw new Error('the ruled bench request does not route');
  for (let i = 0; i < 300; i++) {
    solve(a);
    solve(b);
  }
  const none: number[] = [];
  const rules: number[] = [];
  const time = (input: SolveInput, into: number[]): void => {
    const t0 = process.hrtime.bigint();
    solve(input);
    into.push(Number(process.hrtime.bigint() - t0) / 1e6);
  };
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 0) {
      time(a, none);
      time(b, rules);
    } else {
      time(b, rules);
      time(a, none);
    }
  }
  const p = (xs: number[], q: number) => quantile(xs, q);
  const legs = ruledFirst.hops.reduce((n, h) => n + h.legs.length, 0);
  return [
    { scenario: 'solve', metric: 'interleaved p50 without rules', value: p(none, 0.5), unit: 'ms' },
    { scenario: 'solve', metric: 'interleaved p50 with rules', value: p(rules, 0.5), unit: 'ms' },
    { scenario: 'solve', metric: 'interleaved p99 without rules', value: p(none, 0.99), unit: 'ms' },
    { scenario: 'solve', metric: 'interleaved p99 with rules', value: p(rules, 0.99), unit: 'ms' },
    { scenario: 'solve', metric: 'rules / none, p50', value: p(rules, 0.5) / p(none, 0.5), unit: 'x' },
    { scenario: 'solve', metric: 'rules / none, p99', value: p(rules, 0.99) / p(none, 0.99), unit: 'x' },
    { scenario: 'solve', metric: 'legs with rules', value: legs, unit: 'count' },
    {
      scenario: 'solve',
      metric: 'allocation with rules',
      value: bytesPerCall(() => solve(b)),
      unit: 'bytes',
    },
  ];
}
