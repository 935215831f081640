import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { BookCache } from '@app/books';
import type { EventRecord, parseRecord } from '@app/events';
import type { routeRequest } from '@app/request';
import type { SERVER_DEFAULTS } from '@app/config';
import type { SolveInput, Strategy } from '@app/routing';
import { SYNTH_EPOCH } from '@app/synth';
import { quantile, type BenchRow } from './bench-row';
import { outputOf } from './child-io';
import { BENCH_RULES, benchSnapshots } from './market-gen';

// Order rules the way users meet them: request shapes across strategies, maxVenues 1-10, sizes
// from 100 to 1,000,000 USDT, direct and bridged, on the demo's books (replay-data/, 60 venues
// with rules like real venues') and on the routing scenario's (60 venues x 1,000 levels), each
// timed with the books' rules and with the same books without them, interleaved call by call.

/** A book set with rules and the same books without them, at one instant. */
interface BookSet {
  readonly name: string;
  readonly kit: Kit;
  readonly ruled: BookCache;
  readonly plain: BookCache;
  readonly now: number;
  /** Pairs to quote: from, to, and USDT per unit of `from` (to size requests in USDT). */
  readonly pairs: readonly (readonly [string, string, number])[];
}

const SIZES_USDT = [100, 1_000, 10_000, 100_000, 1_000_000];
const MAX_VENUES = [1, 3, 5, 10];
/** Shapes timed again, at length, before the worst is named. */
const RETIMED = 10;

/**
 * What the shapes are built and solved with: one build's book cache, record parser, strategies
 * and solver. A baseline is timed with its own (kitOf): its solver fed this build's book objects
 * ran 1.4x slower on the rules side than the same solver with its own, so its ratio said nothing.
 * Nor does this module load this build's solver: in a process that had loaded it, a baseline
 * identical to this build came out 1.15x on the median demo shape where this build gave 1.00x.
 */
export interface Kit {
  readonly BookCache: new () => BookCache;
  readonly parseRecord: typeof parseRecord;
  readonly strategies: readonly Strategy[];
  readonly solve: Solve;
  readonly routeRequest: typeof routeRequest;
  readonly routing: typeof SERVER_DEFAULTS.routing;
}

/** The kit of a built checkout of another revision (`--baseline=<dir>`). */
export function kitOf(dir: string): Kit {
  const load = <T>(lib: string): T => {
    const entry = join(dir, 'dist', 'libs', lib, 'src', 'index.js');
    return createRequire(entry)(entry) as T;
  };
  const { BookCache: Cache } = load<{ BookCache: Kit['BookCache'] }>('books');
  const { parseRecord: parse } = load<{ parseRecord: Kit['parseRecord'] }>('events');
  return {
    BookCache: Cache,
    parseRecord: parse,
    strategies: load<{ STRATEGIES: readonly Strategy[] }>('routing').STRATEGIES,
    solve: load<{ solve: Solve }>('routing').solve,
    routeRequest: load<{ routeRequest: Kit['routeRequest'] }>('request').routeRequest,
    // Before the server's settings had a table of defaults (2ddf280), the solver held its own.
    routing:
      load<{ SERVER_DEFAULTS?: typeof SERVER_DEFAULTS }>('config').SERVER_DEFAULTS?.routing ??
      load<{ DEFAULT_ROUTING_CONFIG: typeof SERVER_DEFAULTS.routing }>('routing').DEFAULT_ROUTING_CONFIG,
  };
}

function cacheOf(kit: Kit, records: readonly EventRecord[]): BookCache {
  const books = new kit.BookCache();
  for (const r of records) books.apply(r);
  return books;
}

/** Market records with their order rules taken out (amountStep, minAmount, minCost, maxAmount null). */
function withoutRules(records: readonly EventRecord[]): EventRecord[] {
  return records.map((r) =>
    r.type === 'market' ? { ...r, amountStep: null, minAmount: null, minCost: null, maxAmount: null } : r,
  );
}

function demoBooks(kit: Kit): BookSet {
  const file = resolve(__dirname, '..', '..', 'replay-data', 'synthetic-60-venues.jsonl');
  const records: EventRecord[] = [];
  let now = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = kit.parseRecord(JSON.parse(line));
    if (!parsed.ok) throw new Error(`replay-data: unreadable record ${line.slice(0, 80)}`);
    records.push(parsed.record);
    now = Math.max(now, parsed.record.receivedAt);
  }
  return {
    name: 'demo',
    kit,
    ruled: cacheOf(kit, records),
    plain: cacheOf(kit, withoutRules(records)),
    now,
    pairs: [
      ['USDT', 'BTC', 1],
      ['BTC', 'USDT', 65_000],
      ['USDC', 'ETH', 1],
      ['SOL', 'XRP', 150],
    ],
  };
}

function scenarioBooks(kit: Kit): BookSet {
  const records = benchSnapshots(60, 1000, SYNTH_EPOCH);
  const ruled = records.map((r) =>
    r.type === 'market' ? { ...r, ...BENCH_RULES[r.symbol], receivedAt: r.receivedAt } : r,
  );
  return {
    name: 'scenario',
    kit,
    ruled: cacheOf(kit, ruled),
    plain: cacheOf(kit, withoutRules(ruled)),
    now: SYNTH_EPOCH,
    pairs: [
      ['USDT', 'BTC', 1],
      ['ETH', 'USDT', 3_200],
      ['ETH', 'USDC', 3_200],
    ],
  };
}

/** One request shape, solved against both book sets of its BookSet. */
interface Shape {
  readonly label: string;
  readonly ruled: SolveInput;
  readonly plain: SolveInput;
}

function shapes(set: BookSet): Shape[] {
  const out: Shape[] = [];
  for (const [from, to, usdtPerUnit] of set.pairs)
    for (const usdt of SIZES_USDT)
      for (const strategy of set.kit.strategies)
        for (const maxVenues of MAX_VENUES) {
          const request = set.kit.routeRequest({
            requestId: 'bench',
            from,
            to,
            amount: +(usdt / usdtPerUnit).toPrecision(8),
            strategy,
            maxVenues,
          });
          const ruled: SolveInput = {
            request,
            books: set.ruled,
            now: set.now,
            config: set.kit.routing,
          };
          out.push({
            label: `${set.name} ${from}->${to} ${usdt} USDT ${strategy} maxVenues=${maxVenues}`,
            ruled,
            plain: { ...ruled, books: set.plain },
          });
        }
  return out;
}

interface Timed {
  readonly label: string;
  readonly ruled: number;
  readonly plain: number;
  /**
   * The rules left the route as it was (the same markets, the same sides). Where they change it,
   * e.g. a bridged route quoting two hops of venues where the rule-free answer quotes one, the
   * two solves did different work, and their ratio says so rather than what the rules walk costs.
   */
  readonly sameRoute: boolean;
}

/** The route an answer took: its hops' markets and sides. */
function routeOf(answer: unknown): string {
  const hops = (answer as { hops?: readonly { pair: string; side: string }[] }).hops ?? [];
  return hops.map((h) => `${h.pair} ${h.side}`).join(', ');
}

export type Solve = (input: SolveInput) => unknown;

/** Median time of each side over `calls` interleaved calls (the order alternating each call). */
function timeShape(shape: Shape, calls: number, run: Solve): Timed {
  const ruled: number[] = [];
  const plain: number[] = [];
  const sameRoute = routeOf(run(shape.ruled)) === routeOf(run(shape.plain));
  const time = (input: SolveInput, into: number[]): void => {
    const t0 = process.hrtime.bigint();
    run(input);
    into.push(Number(process.hrtime.bigint() - t0) / 1e6);
  };
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) {
      time(shape.ruled, ruled);
      time(shape.plain, plain);
    } else {
      time(shape.plain, plain);
      time(shape.ruled, ruled);
    }
  }
  return { label: shape.label, ruled: quantile(ruled, 0.5), plain: quantile(plain, 0.5), sameRoute };
}

/**
 * Scenario `solve`'s shapes rows: per book set, the median and worst rules/none ratio over
 * shapes; with a baseline checkout, the same rows of its solver. Each build is timed in a fresh
 * process of its own that does nothing else (solve-shapes-child.ts), with this one's flags (the
 * young generation's size sets how often the collector runs, and the rules side allocates more):
 * two solvers timed in one process do not run as they do alone (the one loaded second ran 30-50 %
 * slower), and a solver's ratio moves with what its process ran before (2ddf280's own, timed after
 * the rest of this scenario, came out 1.11x on the demo's median shape; alone, 1.29x).
 */
export async function benchSolveShapes(
  baseline: string | null,
  runs = Number(process.env.BENCH_SHAPE_RUNS ?? 3),
): Promise<BenchRow[]> {
  const builds: [string, string][] = [[resolve(__dirname, '..', '..'), '']];
  if (baseline !== null) builds.push([baseline, 'baseline ']);
  const all = builds.map((): BenchRow[][] => []);
  // The builds alternate, run by run, so that the machine's load falls on both alike.
  for (let run = 0; run < runs; run++)
    for (const [i, [checkout, who]] of builds.entries()) all[i]!.push(await childRows(checkout, who));
  return all.flatMap((list, i) => medianRun(list, builds[i]![1]));
}

/**
 * Of one build's runs, the rows of the run whose worst demo shape is the median one (a process's
 * compiled code differs from run to run: the worst ratio moved by 0.1-0.6 between runs), and the
 * range of that worst shape over the runs.
 */
function medianRun(list: readonly BenchRow[][], who: string): BenchRow[] {
  const worstOf = (rows: readonly BenchRow[]): number =>
    rows.find((r) =>
      r.metric.startsWith(`shapes demo${who === '' ? '' : ` (${who.trim()})`}: rules / none, worst shape (`),
    )?.value ?? 0;
  const sorted = [...list].sort((a, b) => worstOf(a) - worstOf(b));
  const name = `shapes demo${who === '' ? '' : ` (${who.trim()})`}`;
  return [
    ...sorted[(sorted.length - 1) >> 1]!,
    { scenario: 'solve', metric: `${name}: runs`, value: list.length, unit: 'count' },
    {
      scenario: 'solve',
      metric: `${name}: worst shape over the runs, least`,
      value: worstOf(sorted[0]!),
      unit: 'x',
    },
    {
      scenario: 'solve',
      metric: `${name}: worst shape over the runs, most`,
      value: worstOf(sorted.at(-1)!),
      unit: 'x',
    },
  ];
}

async function childRows(checkout: string, who: string): Promise<BenchRow[]> {
  const out = await outputOf(`solve shapes of ${checkout}`, process.execPath, [
    ...process.execArgv,
    join(__dirname, 'solve-shapes-child.js'),
    checkout,
    who,
  ]);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as BenchRow[];
}

/** The shapes rows of one build's kit (`who`: '' for this build, 'baseline ' for another). */
export function shapesRowsOf(
  kit: Kit,
  who: string,
  calls = Number(process.env.BENCH_SHAPE_CALLS ?? 41),
): BenchRow[] {
  const run = kit.solve;
  const rows: BenchRow[] = [];
  for (const set of [demoBooks(kit), scenarioBooks(kit)]) {
    const all = shapes(set);
    // Warm every path (JIT) before timing any.
    for (let round = 0; round < 3; round++)
      for (const s of all) {
        run(s.ruled);
        run(s.plain);
      }
    const timed = all.map((s) => timeShape(s, calls, run));
    // The worst of hundreds of short medians is partly the noisiest: the ten worst shapes are
    // timed again with five times the calls, and those figures replace theirs.
    const worst = timed
      .map((t, at) => ({ at, ratio: t.ruled / t.plain }))
      .sort((a, b) => b.ratio - a.ratio)
      .slice(0, RETIMED);
    for (const { at } of worst) timed[at] = timeShape(all[at]!, calls * 5, run);
    rows.push(...shapeRows(`shapes ${set.name}${who === '' ? '' : ` (${who.trim()})`}`, set, timed));
  }
  return rows;
}

function shapeRows(name: string, set: BookSet, timed: readonly Timed[]): BenchRow[] {
  const ratios = timed.map((t) => t.ruled / t.plain);
  const worstOf = (list: readonly Timed[]): Timed =>
    list.reduce((w, t) => (t.ruled / t.plain > w.ruled / w.plain ? t : w));
  const worst = worstOf(timed);
  const same = timed.filter((t) => t.sameRoute);
  const row = (metric: string, value: number, unit: string): BenchRow => ({
    scenario: 'solve',
    metric: `${name}: ${metric}`,
    value,
    unit,
  });
  return [
    row('shapes', timed.length, 'count'),
    row('rules / none, median shape', quantile(ratios, 0.5), 'x'),
    row('rules / none, p90 shape', quantile(ratios, 0.9), 'x'),
    row(
      `rules / none, worst shape (${worst.label.slice(set.name.length + 1)})`,
      worst.ruled / worst.plain,
      'x',
    ),
    row('worst shape with rules', worst.ruled, 'ms'),
    row('worst shape without rules', worst.plain, 'ms'),
    row('shapes whose route the rules change', timed.length - same.length, 'count'),
    ...(same.length === 0
      ? []
      : [
          ((w: Timed) =>
            row(
              `rules / none, worst shape of the same route (${w.label.slice(set.name.length + 1)}: ${fmtMs(w.ruled)} vs ${fmtMs(w.plain)} ms)`,
              w.ruled / w.plain,
              'x',
            ))(worstOf(same)),
          row(
            'rules / none, median shape of the same route',
            quantile(
              same.map((t) => t.ruled / t.plain),
              0.5,
            ),
            'x',
          ),
        ]),
    row(
      'p50 over shapes with rules',
      quantile(
        timed.map((t) => t.ruled),
        0.5,
      ),
      'ms',
    ),
    row(
      'p50 over shapes without rules',
      quantile(
        timed.map((t) => t.plain),
        0.5,
      ),
      'ms',
    ),
  ];
}

function fmtMs(ms: number): string {
  return ms.toFixed(3);
}
