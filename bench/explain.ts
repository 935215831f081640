import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BookCache } from '@app/books';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import {
  constraintCosts,
  solve,
  solveWithProof,
  type RouteRequest,
  type RouteResult,
  type SolveInput,
} from '@app/routing';
import { bytesPerCall, quantile, type BenchRow } from './bench-row';
import { benchSnapshots, prng, venueIds } from './market-gen';
import { BENCH_REQUEST } from './solve';

const NOW = 1_786_309_548_000;

/** The bench request carrying six constraints at once (every row constraintCosts can add but one). */
export const CONSTRAINED_REQUEST: RouteRequest = routeRequest({
  requestId: 'bench-constrained',
  from: 'ETH',
  to: 'USDT',
  amount: 50,
  strategy: 'split_capped',
  maxVenues: 3,
  minLegNotional: 1000,
  balances: { default: { ETH: 2, BTC: 0.2, USDC: 10_000 }, perVenue: {} },
  certifiedOnly: true,
  exchanges: venueIds(40),
});

type Job = { name: string; run: () => unknown };

/**
 * Wall time of each job, interleaved: every round runs each job once, in an order shuffled by a
 * seeded PRNG, so that machine load and cache state left by the job before fall on all alike.
 */
function interleaved(jobs: Job[], iterations: number, seed = 7): Map<string, number[]> {
  const rand = prng(seed);
  const samples = new Map(jobs.map((j) => [j.name, [] as number[]]));
  const order = jobs.map((_, k) => k);
  for (let i = 0; i < iterations; i++) {
    for (let k = order.length - 1; k > 0; k--) {
      const r = Math.floor(rand() * (k + 1));
      [order[k], order[r]] = [order[r]!, order[k]!];
    }
    for (const k of order) {
      const job = jobs[k]!;
      const t0 = process.hrtime.bigint();
      job.run();
      samples.get(job.name)!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return samples;
}

/** The `solve` of another revision's build under `dir` (its dist/, CommonJS). */
function baselineSolve(dir: string): (input: SolveInput) => RouteResult {
  const load = createRequire(__filename);
  const lib = load(join(dir, 'dist/libs/routing/src/index.js')) as {
    solve: (input: SolveInput) => RouteResult;
  };
  return lib.solve;
}

/**
 * Scenario `explain`: a plain solve, the same solve with its proof, and the counterfactual set, on
 * `solve`'s market (60 venues x 6 markets x 1,000 levels) for the bench request and for one
 * carrying six constraints; timed interleaved in one process. With `baseline` (a built checkout of
 * another revision), that revision's plain solve is timed in the same rotation.
 */
export function benchExplain(iterations = 1500, baseline: string | null = null): BenchRow[] {
  const cache = new BookCache();
  for (const r of benchSnapshots(60, 1000, NOW)) cache.apply(r);
  const input = (request: RouteRequest): SolveInput => ({
    request,
    books: cache,
    now: NOW,
    config: SERVER_DEFAULTS.routing,
  });
  const plain = input(BENCH_REQUEST);
  const constrained = input(CONSTRAINED_REQUEST);
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string) =>
    rows.push({ scenario: 'explain', metric, value, unit });
  const other = baseline === null ? null : baselineSolve(baseline);
  if (other !== null) {
    if (JSON.stringify(other(plain)) !== JSON.stringify(solve(plain)))
      throw new Error('the baseline solver gives other bytes for the bench request');
    // Compared before either solver meets another request shape: what V8 inlines, hence what a
    // solve allocates, depends on the mix of requests the process has seen.
    for (let i = 0; i < 1000; i++) {
      solve(plain);
      other(plain);
    }
    row(
      'solve allocation (plain requests only)',
      bytesPerCall(() => solve(plain)),
      'bytes',
    );
    row(
      'baseline allocation (plain requests only)',
      bytesPerCall(() => other(plain)),
      'bytes',
    );
    // Timed in that same state, this solver and the baseline's paired round by round.
    const ab = interleaved(
      [
        { name: 'solve', run: () => solve(plain) },
        { name: 'baseline', run: () => other(plain) },
      ],
      iterations * 2,
    );
    const theirs = ab.get('baseline')!;
    row('solve p50 (A/B phase)', quantile(ab.get('solve')!, 0.5), 'ms');
    row('baseline solve p50 (A/B phase)', quantile(theirs, 0.5), 'ms');
    const paired = ab.get('solve')!.map((v, i) => v / theirs[i]!);
    row('solve / baseline solve (median paired)', quantile(paired, 0.5), 'x');
  }
  const proof = solveWithProof(plain);
  if (JSON.stringify(proof.result) !== JSON.stringify(solve(plain)))
    throw new Error('the proof changed the result');
  const costs = constraintCosts(plain);
  const costsConstrained = constraintCosts(constrained);
  if (costsConstrained.constraints.length !== 6 || costsConstrained.route.unroutableReason !== null)
    throw new Error('the constrained bench request is not the shape it should be');
  const jobs: Job[] = [
    { name: 'solve', run: () => solve(plain) },
    { name: 'proof', run: () => solveWithProof(plain) },
    { name: 'costs', run: () => constraintCosts(plain) },
    { name: 'solve constrained', run: () => solve(constrained) },
    { name: 'costs constrained', run: () => constraintCosts(constrained) },
  ];
  interleaved(jobs, 200);
  const t = interleaved(jobs, iterations);
  const p50 = (name: string) => quantile(t.get(name)!, 0.5);
  for (const job of jobs) {
    row(`${job.name} p50`, p50(job.name), 'ms');
    row(`${job.name} p99`, quantile(t.get(job.name)!, 0.99), 'ms');
  }
  row('proof / solve (p50)', p50('proof') / p50('solve'), 'x');
  row('costs / solve (p50)', p50('costs') / p50('solve'), 'x');
  row('costs constrained / solve constrained', p50('costs constrained') / p50('solve constrained'), 'x');
  const solves = (c: typeof costs) =>
    c.strategies.filter((x) => !x.current).length + c.constraints.length + 1;
  row('costs: solves per request', solves(costs), 'solves');
  row('costs constrained: solves per request', solves(costsConstrained), 'solves');
  row(
    'solve allocation (after proofs and costs)',
    bytesPerCall(() => solve(plain)),
    'bytes',
  );
  row(
    'proof allocation',
    bytesPerCall(() => solveWithProof(plain)),
    'bytes',
  );
  row(
    'costs allocation',
    bytesPerCall(() => constraintCosts(plain)),
    'bytes',
  );
  row('proof JSON size', JSON.stringify(proof.proof).length, 'bytes');
  return rows;
}
