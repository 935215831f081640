import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_DEFAULTS } from '@app/config';
import { solve, solveWithProof, type SolveInput, type SolveProof } from '@app/routing';
import { NOW } from '../test/fixtures';
import { scenarioInput } from '../test/scenarios';
import { FILL_EPS } from './numeric';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// The proof against the result of the same solve, over generated books and requests
// (libs/routing/test/scenarios.ts): what it says must be what the result shows.

const inputOf = (seed: number): SolveInput => ({
  ...scenarioInput(seed, NOW),
  now: NOW,
  config: DEFAULT_ROUTING_CONFIG,
});
const near = (a: number, b: number) => Math.abs(a - b) <= FILL_EPS * Math.max(Math.abs(a), Math.abs(b));

function check(input: SolveInput): void {
  const { result, proof } = solveWithProof(input);
  // Proof on or off, the result has the same bytes.
  expect(JSON.stringify(result)).toBe(JSON.stringify(solve(input)));
  // Plain JSON: nothing undefined, NaN or infinite is lost on the way through.
  expect(JSON.parse(JSON.stringify(proof))).toEqual(proof);
  for (const c of proof.candidates) {
    expect(c.eligible).toBe(c.ineligibleBecause === null);
    if (c.score !== null && c.score.steps.length > 0) expect(c.score.steps.at(-1)).toBe(c.score.score);
    for (const hop of c.hops) {
      const steps = hop.legs.flatMap((l) => l.levels.map((v) => v.step)).sort((a, b) => a - b);
      expect(steps).toEqual(steps.map((_, i) => i));
      for (const leg of hop.legs) checkLeg(leg);
      if (hop.legs.length > 0 && hop.pinnedMet) {
        // Legs sum to the hop on the pinned side, up to the numeric policy's dust.
        const pinned = hop.asked.pinned === 'in' ? 'amountIn' : 'amountOut';
        const sum = hop.legs.reduce((t, l) => t + l[pinned], 0);
        expect(near(sum, hop[pinned]), `${sum} vs ${hop[pinned]}`).toBe(true);
      }
    }
  }
  checkAgainstResult(proof, result);
}

function checkLeg(leg: SolveProof['candidates'][number]['hops'][number]['legs'][number]): void {
  expect(leg.levels.length).toBeGreaterThan(0);
  leg.levels.forEach((v, i) => {
    expect(v.base).toBeLessThanOrEqual(v.available);
    expect(v.base).toBeGreaterThan(0);
    if (i > 0) expect(v.level).toBe(leg.levels[i - 1]!.level + 1);
    // Every level before the last is taken whole.
    if (i < leg.levels.length - 1) expect([v.stop, v.base]).toEqual(['level_exhausted', v.available]);
  });
  const last = leg.levels.at(-1)!;
  // To the bit: the running totals are the sums the walk made.
  expect(last.runningBase).toBe(leg.amount);
  expect(last.runningCost).toBe(leg.cost);
  expect(leg.averagePrice).toBe(leg.cost / leg.amount);
  expect(leg.feeCost).toBe(leg.cost * leg.fee);
}

function checkAgainstResult(proof: SolveProof, result: ReturnType<typeof solve>): void {
  const { decision } = proof;
  if (result.pathsConsidered.length > 0) {
    expect(result.pathsConsidered.map((p) => p.chosen)).toEqual(
      proof.candidates.map((c) => c.index === decision.winner),
    );
    expect(result.pathsConsidered.map((p) => [p.amountOut, p.score, p.fullyFillable])).toEqual(
      proof.candidates.map((c) => [c.amountOut, c.score!.score, c.fullyFillable]),
    );
  }
  expect(decision.winner === null).toBe(result.unroutableReason !== null);
  const shown = decision.hopsFrom === null ? [] : proof.candidates[decision.hopsFrom]!.hops;
  expect(result.hops.length).toBeLessThanOrEqual(shown.length);
  if (decision.hopsFrom === null) expect(result.hops).toEqual([]);
  result.hops.forEach((h, k) => {
    const p = shown[k]!;
    expect([h.pair, h.amountIn, h.amountOut, h.fullyFillable]).toEqual([
      p.pair,
      p.amountIn,
      p.amountOut,
      p.fullyFillable,
    ]);
    expect(h.legs.map((l) => [l.exchangeId, l.amount, l.averagePrice, l.feeCost, l.effectivePrice])).toEqual(
      p.legs.map((l) => [l.exchangeId, l.amount, l.averagePrice, l.feeCost, l.effectivePrice]),
    );
    expect(h.legs.map((l) => l.balanceLimited ?? false)).toEqual(
      p.legs.map((l) => l.capLimited && l.cap !== null),
    );
  });
  if (decision.winner !== null && decision.runnerUp !== null) {
    const w = proof.candidates[decision.winner]!.score!.score;
    const r = proof.candidates[decision.runnerUp]!.score!.score;
    expect(w).toBeGreaterThanOrEqual(r);
  }
}

describe('the proof agrees with the result of the same solve', () => {
  it('over 400 fixed generated scenarios', () => {
    for (let seed = 1; seed <= 400; seed++) check(inputOf(seed));
  });

  it('over random generated scenarios (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 401, max: 2 ** 31 - 1 }), (seed) => check(inputOf(seed))),
      { numRuns: 300 },
    );
  });
});
