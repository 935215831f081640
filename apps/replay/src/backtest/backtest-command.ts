import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InstantFold, fileSource, logSources } from '@app/feed';
import type { EventLog } from '@app/log';
import { DEFAULT_ROUTING_CONFIG, type RoutingConfig } from '@app/routing';
import { intFlag, numFlag, parseArgs, requiredFlag, UsageError, type Args } from '../cli/args';
import { progressBar } from '../cli/progress';
import { reportHtml } from './report-html';
import { runBacktest, type QuoteRow } from './run-backtest';
import { parseSchedule, ScheduleError, type Schedule } from './schedule';
import { SummaryBuilder } from './summary';
import type { Series } from './svg-charts';
import { RowWriter } from './write-rows';

export interface BacktestContext {
  readonly cwd: string;
  readonly err: (line: string) => void;
  readonly stderrIsTty: boolean;
}

/**
 * `backtest --from MS --to MS --schedule FILE [--events FILE|DIR] [--out DIR]`: writes
 * quotes.csv, quotes.jsonl, summary.json and report.html into --out (default ./backtest-out).
 * Without --events the records come from the event log.
 */
export async function backtestCommand(
  argv: readonly string[],
  openLog: (args: Args) => EventLog,
  ctx: BacktestContext,
): Promise<number> {
  const args = parseArgs(argv, [
    'from',
    'to',
    'schedule',
    'events',
    'out',
    'data-dir',
    'stale-book-ms',
    'staleness-penalty-bps',
    'default-taker-fee-rate',
  ]);
  if (args.positional.length > 0)
    throw new UsageError(`backtest takes no positional arguments, got '${args.positional[0]}'`);
  const from = intFlag(args, 'from', -1, 0, 8_640_000_000_000_000);
  const to = intFlag(args, 'to', -1, 0, 8_640_000_000_000_000);
  if (!args.flags.has('from') || !args.flags.has('to'))
    throw new UsageError('--from and --to (epoch ms) are required');
  if (to < from) throw new UsageError(`--to (${to}) must not be before --from (${from})`);
  const schedule = readSchedule(resolve(ctx.cwd, requiredFlag(args, 'schedule')));
  const instants = Math.floor((to - from) / schedule.intervalMs) + 1;
  if (instants > 10_000_000)
    throw new UsageError(`${instants} rounds: widen intervalMs or narrow --from/--to`);
  const config: RoutingConfig = {
    staleBookMs: intFlag(args, 'stale-book-ms', DEFAULT_ROUTING_CONFIG.staleBookMs, 1, 86_400_000),
    stalenessPenaltyBps: numFlag(
      args,
      'staleness-penalty-bps',
      DEFAULT_ROUTING_CONFIG.stalenessPenaltyBps,
      0,
      10_000,
    ),
    defaultTakerFeeRate: numFlag(
      args,
      'default-taker-fee-rate',
      DEFAULT_ROUTING_CONFIG.defaultTakerFeeRate,
      0,
      0.5,
    ),
  };
  const out = resolve(ctx.cwd, args.flags.get('out') ?? 'backtest-out');
  const eventsPath = args.flags.get('events');
  let skipped = 0;
  const named = (what: string): void => {
    if (++skipped <= 5) ctx.err(`skipped: ${what}`);
  };
  let fold: InstantFold;
  let source: string;
  let log: EventLog | null = null;
  if (eventsPath !== undefined) {
    const path = resolve(ctx.cwd, eventsPath);
    if (!existsSync(path)) throw new UsageError(`--events: no such file or directory: ${eventsPath}`);
    fold = new InstantFold([fileSource(path, (s) => named(`${s.file}:${s.line}: ${s.problem}`))]);
    source = `the recording at ${eventsPath}`;
  } else {
    log = openLog(args);
    const opened = log;
    fold = new InstantFold(
      await logSources(opened, (s) => named(`${s.topic}/${s.partition}@${s.offset}: ${s.problem}`)),
    );
    source = 'the event log';
  }

  mkdirSync(out, { recursive: true });
  const writer = new RowWriter(join(out, 'quotes.csv'), join(out, 'quotes.jsonl'));
  const summary = new SummaryBuilder();
  const head = schedule.requests[0]!;
  const seriesOf = new Map<string, [number, number][]>();
  const bar = progressBar('backtest', instants, ctx.stderrIsTty);
  let timing;
  try {
    timing = await runBacktest({
      fold,
      schedule,
      from,
      to,
      config,
      clock: () => performance.now(),
      onInstant: (k) => bar.update(k),
      onRow: (row: QuoteRow) => {
        writer.write(row);
        summary.add(row);
        if (row.label === head.label && row.amount === head.sizes[0] && row.routed) {
          let pts = seriesOf.get(row.strategy);
          if (pts === undefined) seriesOf.set(row.strategy, (pts = []));
          pts.push([row.at, row.amountOut]);
        }
      },
    });
  } finally {
    writer.close();
    await log?.close();
  }
  bar.finish();
  const span = fold.span;
  if (span === null) throw new UsageError(`no records in ${source} up to ${to}`);
  if (from > span.last)
    ctx.err(
      `warning: the range ${from}..${to} starts after the data folded (${span.first}..${span.last}); every book may be stale`,
    );
  const summaries = summary.build(schedule.strategies);
  const quotesPerS = timing.quotes / (timing.solveMs / 1000);
  const foldPerS = timing.recordsFolded / Math.max(1e-9, timing.foldMs / 1000);
  const figures: [string, string][] = [
    ['records skipped (invalid)', String(skipped)],
    [
      'records folded',
      `${timing.recordsFolded} in ${timing.foldMs.toFixed(1)} ms (${Math.round(foldPerS)} records/s)`,
    ],
    [
      'quotes solved',
      `${timing.quotes} in ${timing.solveMs.toFixed(1)} ms (${Math.round(quotesPerS)} quotes/s)`,
    ],
    ['routing config', JSON.stringify(config)],
  ];
  const series: Series[] = schedule.strategies.map((s) => ({ name: s, points: seriesOf.get(s) ?? [] }));
  writeFileSync(
    join(out, 'summary.json'),
    `${JSON.stringify({ from, to, source, intervalMs: schedule.intervalMs, config, quotes: timing.quotes, recordsFolded: timing.recordsFolded, foldMs: timing.foldMs, solveMs: timing.solveMs, strategies: summaries }, null, 2)}\n`,
  );
  writeFileSync(
    join(out, 'report.html'),
    reportHtml({
      title: 'Routing backtest',
      source,
      from,
      to,
      schedule,
      summaries,
      series,
      seriesLabel: `${head.label}, size ${head.sizes[0]}: amount out per strategy`,
      figures,
    }),
  );
  ctx.err(
    `backtest: ${timing.quotes} quotes at ${timing.instants} instants; folded ${timing.recordsFolded} records at ${Math.round(foldPerS)}/s, solved ${Math.round(quotesPerS)} quotes/s; wrote ${out}/{quotes.csv,quotes.jsonl,summary.json,report.html}`,
  );
  return 0;
}

function readSchedule(path: string): Schedule {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--schedule: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `--schedule: ${path} is not valid JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  try {
    return parseSchedule(value);
  } catch (e) {
    if (e instanceof ScheduleError) throw new UsageError(e.message);
    throw e;
  }
}
