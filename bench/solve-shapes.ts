import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { BookCache } from '@app/books';
import { parseRecord, type EventRecord } from '@app/events';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solve, STRATEGIES, type SolveInput, type Strategy } from '@app/routing';
import { SYNTH_EPOCH } from '@app/synth';
import { quantile, type BenchRow } from './bench-row';
import { BENCH_RULES, benchSnapshots } from './market-gen';

// Order rules the way users meet them: request shapes across strategies, maxVenues 1-10, sizes
// from 100 to 1,000,000 USDT, direct and bridged, on the demo's books (replay-data/, 60 venues
// with rules like real venues') and on the routing scenario's (60 venues x 1,000 levels), each
// timed with the books' rules and with the same books without them, interleaved call by call.

/** A book set with rules and the same books without them, at one instant. */
interface BookSet {
  readonly name: string;
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

function cacheOf(records: readonly EventRecord[]): BookCache {
  const books = new BookCache();
  for (const r of records) books.apply(r);
  return books;
}

/** Market records with their order rules taken out (amountStep, minAmount, minCost, maxAmount null). */
function withoutRules(records: readonly EventRecord[]): EventRecord[] {
  return records.map((r) =>
    r.type === 'market' ? { ...r, amountStep: null, minAmount: null, minCost: null, maxAmount: null } : r,
  );
}

function demoBooks(): BookSet {
  const file = resolve(__dirname, '..', '..', 'replay-data', 'synthetic-60-venues.jsonl');
  const records: EventRecord[] = [];
  let now = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = parseRecord(JSON.parse(line));
    if (!parsed.ok) throw new Error(`replay-data: unreadable record ${line.slice(0, 80)}`);
    records.push(parsed.record);
    now = Math.max(now, parsed.record.receivedAt);
  }
  return {
    name: 'demo',
    ruled: cacheOf(records),
    plain: cacheOf(withoutRules(records)),
    now,
    pairs: [
      ['USDT', 'BTC', 1],
      ['BTC', 'USDT', 65_000],
      ['USDC', 'ETH', 1],
      ['SOL', 'XRP', 150],
    ],
  };
}

function scenarioBooks(): BookSet {
  const records = benchSnapshots(60, 1000, SYNTH_EPOCH);
  const ruled = records.map((r) =>
    r.type === 'market' ? { ...r, ...BENCH_RULES[r.symbol], receivedAt: r.receivedAt } : r,
  );
  return {
    name: 'scenario',
    ruled: cacheOf(ruled),
    plain: cacheOf(withoutRules(ruled)),
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
      for (const strategy of STRATEGIES as readonly Strategy[])
        for (const maxVenues of MAX_VENUES) {
          const request = routeRequest({
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
            config: SERVER_DEFAULTS.routing,
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

type Solve = (input: SolveInput) => unknown;

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

/** The solver of a built checkout of another revision (`--baseline=<dir>`). */
function baselineSolve(dir: string): Solve {
  const entry = join(dir, 'dist', 'libs', 'routing', 'src', 'index.js');
  return (createRequire(entry)(entry) as { solve: Solve }).solve;
}

/**
 * Scenario `solve`'s shapes rows: per book set, the median and worst rules/none ratio over
 * shapes; with a baseline checkout, its solver is timed too, shape by shape beside this one.
 */
export function benchSolveShapes(
  baseline: string | null,
  calls = Number(process.env.BENCH_SHAPE_CALLS ?? 41),
): BenchRow[] {
  const solvers: [string, Solve][] = [['', solve]];
  if (baseline !== null) solvers.push(['baseline ', baselineSolve(baseline)]);
  const rows: BenchRow[] = [];
  for (const set of [demoBooks(), scenarioBooks()]) {
    const all = shapes(set);
    // Warm every path (JIT) before timing any.
    for (let round = 0; round < 3; round++)
      for (const s of all)
        for (const [, run] of solvers) {
          run(s.ruled);
          run(s.plain);
        }
    const timed = solvers.map(() => [] as Timed[]);
    for (const s of all) solvers.forEach(([, run], i) => timed[i]!.push(timeShape(s, calls, run)));
    // The worst of hundreds of short medians is partly the noisiest: the ten worst shapes are
    // timed again with five times the calls, and those figures replace theirs.
    solvers.forEach(([, run], i) => {
      const list = timed[i]!;
      const worst = list
        .map((t, at) => ({ at, ratio: t.ruled / t.plain }))
        .sort((a, b) => b.ratio - a.ratio)
        .slice(0, RETIMED);
      for (const { at } of worst) list[at] = timeShape(all[at]!, calls * 5, run);
    });
    solvers.forEach(([who], i) =>
      rows.push(...shapeRows(`shapes ${set.name}${who === '' ? '' : ` (${who.trim()})`}`, set, timed[i]!)),
    );
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
