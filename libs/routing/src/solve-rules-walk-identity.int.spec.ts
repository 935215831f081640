import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookCache } from '@app/books';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import {
  constraintCosts,
  solve,
  solveWithProof,
  STRATEGIES,
  type SolveInput,
  type Strategy,
} from '@app/routing';
import { seeded } from '@app/synth';
import { demoRecording } from '@test/support';
import { NOW, recordsFor, type BookSpec } from '../test/fixtures';
import { ruledScenario } from '../test/scenarios';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// Markets with order rules route byte for byte as the solver before the merged walk learnt to
// rewind and pass by venues that cannot take what is left (merged-ruled.ts): results, proofs and
// constraint costs. The hashes were computed by the solver of 2ddf280, built and loaded from its
// dist/ over these very inputs:
//
//   git worktree add /tmp/base 2ddf280 && (cd /tmp/base && npm ci)
//   RULED_BASELINE=/tmp/base/dist npx vitest run libs/routing/src/solve-rules-walk-identity.int.spec.ts
//
// (with RULED_BASELINE set the test rewrites the fixture from that build, then checks this one).

const FIXTURE = resolve(__dirname, '../test/ruled-walk-baseline.json');
const CHUNK = 100;

type Fn = (input: SolveInput) => unknown;
interface Solver {
  readonly solve: Fn;
  readonly proof: Fn;
  readonly costs: Fn;
}
interface Baseline {
  readonly recordedWith: string;
  readonly [set: string]: string[] | string;
}

/** The small seeded snapshots of the property tests (5 venues), every strategy. */
function scenarios(seed: number): SolveInput[] {
  const s = ruledScenario(seed);
  const books = new BookCache();
  for (const r of recordsFor(s.specs, NOW)) books.apply(r);
  return STRATEGIES.map((strategy) => ({
    request: { ...s.request, strategy },
    books,
    now: NOW,
    config: DEFAULT_ROUTING_CONFIG,
  }));
}

const WIDE_MARKETS: readonly [string, number, number][] = [
  ['BTC/USDT', 40_000, 0.2],
  ['ETH/USDT', 2_000, 3],
  ['ETH/BTC', 0.05, 3],
];

/**
 * Wide hops: 20-60 venues per market with steps from fine to coarse (and none), minimums and
 * maximums, so that the pinned amount's last dust passes many venues and drops cascade.
 */
function wide(seed: number): SolveInput[] {
  const rand = seeded(seed * 7919 + 17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const venues = 20 + Math.floor(rand() * 41);
  const specs: BookSpec[] = [];
  for (const [symbol, mid, size] of WIDE_MARKETS)
    for (let v = 0; v < venues; v++) {
      const skew = 1 + (rand() - 0.5) / 1000;
      const side = (dir: 1 | -1): [number, number][] => {
        const out: [number, number][] = [];
        let p = mid * skew * (1 + (dir * (1 + Math.floor(rand() * 10))) / 10_000);
        const n = 1 + Math.floor(rand() * 12);
        for (let i = 0; i < n; i++) {
          out.push([+p.toPrecision(8), +(size * (0.05 + 2 * rand())).toPrecision(6)]);
          p *= 1 + (dir * (1 + Math.floor(rand() * 20))) / 10_000;
        }
        return out;
      };
      const step = rand() < 0.15 ? null : +(size * pick([1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1])).toPrecision(1);
      specs.push({
        exchangeId: `v${String(v).padStart(2, '0')}`,
        symbol,
        bids: side(-1),
        asks: side(1),
        fee: pick([0.001, 0.00075, 0.002, null]),
        rules: {
          amountStep: step,
          minAmount: rand() < 0.5 ? (step ?? size / 1000) * pick([1, 10]) : null,
          minCost: rand() < 0.7 ? pick([1, 5, 10]) * (symbol === 'ETH/BTC' ? 1e-4 : 1) : null,
          maxAmount: rand() < 0.2 ? +(size * pick([0.5, 2])).toPrecision(6) : null,
        },
      });
    }
  const books = new BookCache();
  for (const r of recordsFor(specs, NOW)) books.apply(r);
  const pair = pick([
    ['USDT', 'BTC', 1],
    ['BTC', 'USDT', 1 / 40_000],
    ['USDT', 'ETH', 1],
    ['ETH', 'BTC', 1 / 2_000],
  ] as const);
  const usdt = pick([100, 1_000, 25_000, 250_000, 1_000_000]);
  const exactOut = rand() < 0.15;
  return STRATEGIES.map((strategy) => ({
    request: routeRequest({
      requestId: `wide-${seed}-${strategy}`,
      from: pair[0],
      to: pair[1],
      amount: exactOut ? +(usdt / 40_000).toPrecision(6) : +(usdt * pair[2]).toPrecision(8),
      exactSide: exactOut ? 'out' : 'in',
      strategy,
      maxVenues: 1 + Math.floor(rand() * 10),
      bridges: rand() < 0.5 ? [] : ['USDT', 'BTC'],
      balances:
        rand() < 0.2
          ? {
              default: { [pair[0]]: usdt * pair[2] * pick([0.05, 0.3, 2]) },
              perVenue: { [`v0${Math.floor(rand() * 5)}`]: { [pair[0]]: usdt * pair[2] * 0.3 } },
            }
          : null,
      balanceMode: rand() < 0.5 ? 'cap' : 'require',
      minLegNotional: rand() < 0.2 ? pick([10, 500]) : 0,
    }),
    books,
    now: NOW,
    config: DEFAULT_ROUTING_CONFIG,
  }));
}

let replayBooks: { books: BookCache; now: number } | null = null;

/** The demo recording at its last instant: the request shapes users send (bench/solve.ts). */
function replayShapes(): SolveInput[] {
  replayBooks ??= demoRecording();
  const { books, now } = replayBooks;
  const out: SolveInput[] = [];
  const pairs: [string, string, number][] = [
    ['USDT', 'BTC', 1],
    ['BTC', 'USDT', 1 / 65_000],
    ['USDC', 'ETH', 1],
    ['SOL', 'XRP', 1 / 150],
    ['XRP', 'SOL', 2],
  ];
  for (const [from, to, per] of pairs)
    for (const usdt of [100, 1_000, 25_000, 250_000, 1_000_000])
      for (const strategy of STRATEGIES as readonly Strategy[])
        for (const maxVenues of [1, 3, 10])
          out.push({
            request: routeRequest({
              requestId: `demo-${from}-${to}-${usdt}-${strategy}-${maxVenues}`,
              from,
              to,
              amount: +(usdt * per).toPrecision(8),
              strategy,
              maxVenues,
            }),
            books,
            now,
            config: DEFAULT_ROUTING_CONFIG,
          });
  return out;
}

const SETS: Record<string, { count: number; inputs: (i: number) => SolveInput[]; what: keyof Solver }> = {
  scenarios: { count: 1500, inputs: scenarios, what: 'solve' },
  scenarioProofs: { count: 500, inputs: scenarios, what: 'proof' },
  scenarioCosts: { count: 150, inputs: (i) => scenarios(i).slice(0, 1), what: 'costs' },
  wide: { count: 300, inputs: wide, what: 'solve' },
  wideProofs: { count: 100, inputs: wide, what: 'proof' },
  replay: { count: 1, inputs: replayShapes, what: 'solve' },
  replayProofs: { count: 1, inputs: replayShapes, what: 'proof' },
};

/** sha256 per chunk of CHUNK indexes of the JSON of the solver's answer to every input of a set. */
function hashes(set: string, solver: Solver): string[] {
  const { count, inputs, what } = SETS[set]!;
  const out: string[] = [];
  for (let from = 1; from <= count; from += CHUNK) {
    const hash = createHash('sha256');
    for (let i = from; i < from + CHUNK && i <= count; i++)
      for (const input of inputs(i)) hash.update(`${JSON.stringify(solver[what](input))}\n`);
    out.push(hash.digest('hex'));
  }
  return out;
}

/**
 * This solver, its proofs naming the baseline's solver version: a proof names the solver that made
 * it, and a new version (1.2.1, 1.2.2 and 1.2.3 changed answers none of these inputs reach) changes
 * only that name. Every other byte is compared.
 */
function current(recordedVersion: string): Solver {
  const proof: Fn = (input) => {
    const { result, proof: p } = solveWithProof(input);
    return { result, proof: { ...p, solverVersion: recordedVersion } };
  };
  return { solve, proof, costs: constraintCosts };
}

function record(dir: string): void {
  const entry = join(dir, 'libs', 'routing', 'src', 'index.js');
  const mod = createRequire(entry)(entry) as {
    solve: Fn;
    solveWithProof: Fn;
    constraintCosts: Fn;
    SOLVER_VERSION: string;
  };
  const solver: Solver = { solve: mod.solve, proof: mod.solveWithProof, costs: mod.constraintCosts };
  const baseline: Record<string, string[] | string> = {
    recordedWith: `solver ${mod.SOLVER_VERSION}, built from 2ddf280 (before the rewinding merged walk)`,
  };
  for (const set of Object.keys(SETS)) baseline[set] = hashes(set, solver);
  writeFileSync(FIXTURE, `${JSON.stringify(baseline, null, 2)}\n`);
}

describe('markets with order rules route byte for byte as the solver before the rewinding walk', () => {
  const dir = process.env.RULED_BASELINE;
  if (dir !== undefined && dir !== '') record(dir);
  const baseline = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Baseline;
  const recordedVersion = /^solver (\S+),/.exec(baseline.recordedWith)![1]!;
  const solver = current(recordedVersion);

  for (const set of Object.keys(SETS))
    it(`${set}: ${SETS[set]!.what} identical`, () => {
      expect(hashes(set, solver)).toEqual(baseline[set]);
    });
});
