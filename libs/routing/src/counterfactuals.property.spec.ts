import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_DEFAULTS } from '@app/config';
import { constraintCosts, solve, solveWithProof, type RouteRequest, type SolveInput } from '@app/routing';
import { NOW } from '../test/fixtures';
import { scenarioInput } from '../test/scenarios';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// Every counterfactual is exactly the result of the corresponding direct request on the same
// snapshot and clock, over generated books and requests (libs/routing/test/scenarios.ts).

const inputOf = (seed: number): SolveInput => ({
  ...scenarioInput(seed, NOW),
  now: NOW,
  config: DEFAULT_ROUTING_CONFIG,
});
const json = (x: unknown) => JSON.stringify(x);
/** Each constraint, when a request carries it, and what lifting it means (stated independently). */
const ACTIVE: readonly [string, (r: RouteRequest) => boolean, Partial<RouteRequest>, object][] = [
  ['requireFullFill', (r) => r.requireFullFill, { requireFullFill: false }, {}],
  ['minLegNotional', (r) => r.minLegNotional > 0, { minLegNotional: 0 }, {}],
  ['balances', (r) => r.balances !== null, { balances: null }, {}],
  ['maxVenues', (r) => r.strategy === 'split_capped', { maxVenues: Number.MAX_SAFE_INTEGER }, {}],
  ['stalenessPenalty', () => DEFAULT_ROUTING_CONFIG.stalenessPenaltyBps > 0, {}, { stalenessPenaltyBps: 0 }],
  ['certifiedOnly', (r) => r.certifiedOnly, { certifiedOnly: false }, {}],
  ['exchanges', (r) => r.exchanges !== null, { exchanges: null }, {}],
];
const seen = new Map<string, number>();

function check(input: SolveInput): void {
  const { request, books, now, config } = input;
  const costs = constraintCosts(input);
  const route = solve(input);
  const direct = (over: Partial<RouteRequest>, configOver = {}) =>
    solve({ request: { ...request, ...over }, books, now, config: { ...config, ...configOver } });
  expect(json(constraintCosts(input))).toBe(json(costs));
  expect(costs.route.value).toBe(request.exactSide === 'in' ? route.amountOut : route.amountIn);
  expect(costs.route.fillRatio).toBe(route.fillRatio);
  const active = ACTIVE.filter(([, on]) => on(request));
  expect(costs.constraints.map((c) => [c.name, c.requestChange, c.configChange])).toEqual(
    active.map(([n, , change, configChange]) => [n, { ...change, includeQuotes: false }, configChange]),
  );
  for (const s of costs.strategies)
    expect(s.requestChange).toEqual(s.current ? {} : { strategy: s.name, includeQuotes: false });
  for (const row of [...costs.strategies, ...costs.constraints]) {
    if (row.result === null) {
      // The request's own strategy: the route itself.
      expect(row.name).toBe(request.strategy);
      expect([row.value, row.fillRatio, row.effectiveRate, row.costBps]).toEqual([
        costs.route.value,
        route.fillRatio,
        route.effectiveRate,
        route.effectiveRate === null ? null : 0,
      ]);
      continue;
    }
    // The row's result is the direct request's, byte for byte, and its figures are read off it.
    const other = direct(row.requestChange, row.configChange);
    expect(json(row.result)).toBe(json(other));
    expect(row.value).toBe(request.exactSide === 'in' ? other.amountOut : other.amountIn);
    expect([row.fillRatio, row.unroutableReason, row.effectiveRate]).toEqual([
      other.fillRatio,
      other.unroutableReason,
      other.effectiveRate,
    ]);
    if (row.costBps !== null && row.costBps !== 0) seen.set(row.name, (seen.get(row.name) ?? 0) + 1);
    const rate = other.effectiveRate;
    expect(row.costBps).toBe(rate === null ? null : (1 - (route.effectiveRate ?? 0) / rate) * 10_000);
  }
  checkPaths(input, costs.paths, route);
}

function checkPaths(
  input: SolveInput,
  paths: ReturnType<typeof constraintCosts>['paths'],
  route: ReturnType<typeof solve>,
): void {
  const { request, books, now, config } = input;
  const alone = (bridges: string[]) => solve({ request: { ...request, bridges }, books, now, config });
  for (const p of paths) {
    if (p.bridge === null) {
      // The direct path is what a request without bridges gives.
      const d = alone([]);
      expect([p.amountIn, p.amountOut, p.fillRatio, p.fullyFillable, p.effectiveRate]).toEqual([
        d.amountIn,
        d.amountOut,
        d.fillRatio,
        d.fullyFillable,
        d.effectiveRate,
      ]);
      expect(p.unroutableReason).toBe(d.unroutableReason);
      continue;
    }
    // A bridge cannot be asked for alone (the direct market is always a candidate): it is what a
    // request with that one bridge reports for it, in pathsConsidered and in its proof.
    const one = { ...request, bridges: [p.bridge] };
    const { result, proof } = solveWithProof({ request: one, books, now, config });
    const entry = result.pathsConsidered.find((e) => e.bridge === p.bridge);
    const candidate = proof.candidates.find((c) => c.bridge === p.bridge)!;
    if (entry !== undefined)
      expect([p.amountOut, p.score, p.fullyFillable]).toEqual([
        entry.amountOut,
        entry.score,
        entry.fullyFillable,
      ]);
    expect([p.amountIn, p.amountOut, p.unroutableReason]).toEqual([
      candidate.amountIn,
      candidate.amountOut,
      candidate.unroutableReason,
    ]);
  }
  expect(paths.filter((p) => p.chosen).length).toBe(route.unroutableReason === null ? 1 : 0);
}

describe('every counterfactual equals the direct request on the same snapshot', () => {
  it('over 200 fixed generated scenarios', () => {
    for (let seed = 1; seed <= 200; seed++) check(inputOf(seed));
    // Not vacuous: every constraint and strategy had a non-zero cost somewhere.
    for (const [name] of ACTIVE) expect(seen.get(name), name).toBeGreaterThan(0);
    for (const name of ['best_single', 'split_optimal', 'split_capped'])
      expect(seen.get(name), name).toBeGreaterThan(0);
  });

  it('over random generated scenarios (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 401, max: 2 ** 31 - 1 }), (seed) => check(inputOf(seed))),
      { numRuns: 200 },
    );
  });
});
