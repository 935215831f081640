import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BookCache } from '@app/books';
import { SERVER_DEFAULTS } from '@app/config';
import { constraintCosts, solve, STRATEGIES, type SolveInput } from '@app/routing';
import { NOW, recordsFor, type BookSpec } from '../test/fixtures';
import { scenario } from '../test/scenarios';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// Markets without order rules route exactly as before rules existed (docs/semantics.md section 13).
// The hashes below were computed by the solver of the commit before rules (9b74c31, solver 1.1.0),
// built and loaded from its dist/ over these very inputs:
//
//   git archive 9b74c31 | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/
//   (cd /tmp/base && node scripts/build.mjs)
//   RULE_FREE_BASELINE=/tmp/base/dist npx vitest run libs/routing/src/solve-rules-identity.int.spec.ts
//
// (with RULE_FREE_BASELINE set the test rewrites the fixture from that build, then checks this one).

const FIXTURE = resolve(__dirname, '../test/rule-free-baseline.json');
const SEEDS = 1000;
const CHUNK = 100;
const COST_SEEDS = 300;

type SolveFn = (input: SolveInput) => unknown;
interface Baseline {
  readonly recordedWith: string;
  readonly solve: string[];
  readonly constraintCosts: string[];
}

/** Every request of scenario `seed`, under each strategy (its own first). */
function inputs(seed: number, nullRules: boolean): SolveInput[] {
  const s = scenario(seed);
  const specs: BookSpec[] = nullRules
    ? s.specs.map((b) => ({
        ...b,
        rules: { amountStep: null, minAmount: null, minCost: null, maxAmount: null },
      }))
    : s.specs;
  const books = new BookCache();
  for (const r of recordsFor(specs, NOW)) books.apply(r);
  const strategies = [s.request.strategy, ...STRATEGIES.filter((x) => x !== s.request.strategy)];
  return strategies.map((strategy) => ({
    request: { ...s.request, strategy },
    books,
    now: NOW,
    config: DEFAULT_ROUTING_CONFIG,
  }));
}

/** sha256 per chunk of CHUNK seeds of the JSON of `run` over every input of those seeds. */
function chunkHashes(seeds: number, nullRules: boolean, run: (input: SolveInput) => unknown, all: boolean) {
  const out: string[] = [];
  for (let from = 1; from <= seeds; from += CHUNK) {
    const hash = createHash('sha256');
    for (let seed = from; seed < from + CHUNK && seed <= seeds; seed++) {
      const list = inputs(seed, nullRules);
      for (const input of all ? list : list.slice(0, 1)) hash.update(`${JSON.stringify(run(input))}\n`);
    }
    out.push(hash.digest('hex'));
  }
  return out;
}

function record(dir: string): void {
  const entry = join(dir, 'libs', 'routing', 'src', 'index.js');
  const mod = createRequire(entry)(entry) as {
    solve: SolveFn;
    constraintCosts: SolveFn;
    SOLVER_VERSION: string;
  };
  const baseline: Baseline = {
    recordedWith: `solver ${mod.SOLVER_VERSION}, built from the commit before venue rules`,
    solve: chunkHashes(SEEDS, false, mod.solve, true),
    constraintCosts: chunkHashes(COST_SEEDS, false, mod.constraintCosts, false),
  };
  writeFileSync(FIXTURE, `${JSON.stringify(baseline, null, 2)}\n`);
}

describe('a book set without rules routes byte for byte as the solver before rules', () => {
  const dir = process.env.RULE_FREE_BASELINE;
  if (dir !== undefined && dir !== '') record(dir);
  const baseline = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Baseline;

  it(`${SEEDS} generated snapshots x 3 strategies: results identical`, () => {
    expect(chunkHashes(SEEDS, false, solve, true)).toEqual(baseline.solve);
  });

  it('the same with every market record carrying explicit null rules', () => {
    expect(chunkHashes(SEEDS, true, solve, true)).toEqual(baseline.solve);
  });

  it(`constraint costs of ${COST_SEEDS} snapshots identical (no venueRules row without rules)`, () => {
    expect(chunkHashes(COST_SEEDS, false, constraintCosts, false)).toEqual(baseline.constraintCosts);
  });
});
