import { errorMessage } from '@app/retry';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InstantFold, fileSource, horizonText, logHorizon, logSources } from '@app/history';
import type { EventLog } from '@app/event-log';
import { configOption, UsageError } from '@app/config';
import type { RoutingConfig } from '@app/routing';
import { Command, Option } from 'commander';
import { instant } from '../cli/args';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';
import { reportHtml } from './report-html';
import { runBacktest, type QuoteRow } from './run-backtest';
import { parseSchedule, ScheduleError, type Schedule } from './schedule';
import { CellBuilder } from './cells';
import { CELL_COLUMNS, ParquetRows, QUOTE_COLUMNS } from './parquet';
import { SeriesBuilder } from './series';
import { RowWriter } from './write-rows';
import { DecayTracker } from './decay-tracker';

interface BacktestOptions {
  readonly from: number;
  readonly to: number;
  readonly schedule: string;
  readonly events?: string;
  readonly out: string;
  readonly dataDir?: string;
  readonly staleBookMs: number;
  readonly stalenessPenaltyBps: number;
  readonly defaultTakerFeeRate: number;
  /** False with --no-decay. */
  readonly decay: boolean;
}

const HELP = `
At each instant from + k * intervalMs up to --to, every scheduled request is solved for each
size and strategy against the books as they were then (each book after its record with the
greatest receivedAt <= instant).
The schedule file (replay-data/schedule.example.json) lists requests as POST /route bodies
without amount or strategy, plus label, exactSide and sizes (docs/replay.md).

Writes into --out: quotes.csv, quotes.jsonl and quotes.parquet (one row per quote),
summary.json and summary.parquet (per request, size and strategy), report.html (one
self-contained interactive page, works offline). Unless --no-decay, each quote's legs are also
re-priced 1 s, 5 s and 30 s later in the recording (quote decay, docs/explain.md): the report and
summary.json give, per request, size and strategy, the mean bps, the share holding within 1 bps
and the half-life.

Example:
  route-service replay backtest --events replay-data/ --schedule replay-data/schedule.example.json \\
    --from 1786300005000 --to 1786300115000 --out backtest-out/`;

/** `backtest --from T --to T --schedule FILE`: replay strategies over recorded books. */
export function registerBacktest(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('backtest')
    .summary('solve a schedule of requests over recorded books; CSV, JSONL, Parquet and an HTML report')
    .description('Backtest routing strategies over a recording or the event log.')
    .addOption(
      new Option('--from <time>', 'first instant (epoch ms or ISO 8601)')
        .argParser(instant)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--to <time>', 'last instant (epoch ms or ISO 8601)')
        .argParser(instant)
        .makeOptionMandatory(),
    )
    .requiredOption('--schedule <file>', 'schedule JSON file')
    .option('--events <file-or-dir>', 'a recording (JSON Lines file or directory); default: the event log')
    .option('--out <dir>', 'output directory (created if missing)', 'backtest-out')
    .addOption(configOption('replay', 'data-dir', 'embedded event log directory, without --events'))
    // The server's routing settings (STALE_BOOK_MS...) as flags: the table's bounds and defaults.
    .addOption(configOption('replay', 'stale-book-ms'))
    .addOption(configOption('replay', 'staleness-penalty-bps'))
    .addOption(configOption('replay', 'default-taker-fee-rate'))
    .addHelpText('after', HELP)
    .option('--no-decay', 'skip quote decay (each quote re-priced 1 s, 5 s and 30 s later)')
    .action(async (o: BacktestOptions) => done(await backtest(o, ctx)));
}

async function backtest(o: BacktestOptions, ctx: CliContext): Promise<number> {
  const { from, to } = o;
  if (to < from) throw new UsageError(`--to (${to}) must not be before --from (${from})`);
  const schedule = readSchedule(resolve(ctx.cwd, o.schedule));
  const instants = Math.floor((to - from) / schedule.intervalMs) + 1;
  if (instants > 10_000_000)
    throw new UsageError(`${instants} rounds: widen intervalMs or narrow --from/--to`);
  const config: RoutingConfig = {
    staleBookMs: o.staleBookMs,
    stalenessPenaltyBps: o.stalenessPenaltyBps,
    defaultTakerFeeRate: o.defaultTakerFeeRate,
  };
  const out = resolve(ctx.cwd, o.out);
  const eventsPath = o.events;
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
    log = openReadLog(o.dataDir, ctx);
    const opened = log;
    const horizon = await logHorizon(opened);
    if (horizon.at !== null && from < horizon.at) {
      await opened.close();
      throw new UsageError(
        `--from ${from} is before the event log's retention horizon ${horizonText(horizon.at)}: retention has removed the books needed before it`,
      );
    }
    fold = new InstantFold(
      await logSources(opened, (s) => named(`${s.topic}/${s.partition}@${s.offset}: ${s.problem}`)),
    );
    source = 'the event log';
  }

  mkdirSync(out, { recursive: true });
  const writer = new RowWriter(join(out, 'quotes.csv'), join(out, 'quotes.jsonl'));
  const parquet = new ParquetRows(join(out, 'quotes.parquet'), QUOTE_COLUMNS);
  const cells = new CellBuilder();
  const lines = new SeriesBuilder(from);
  const bar = ctx.progress('backtest', instants, 'instants');
  const decay = o.decay ? new DecayTracker() : undefined;
  let timing;
  try {
    timing = await runBacktest({
      fold,
      schedule,
      from,
      to,
      config,
      clock: () => performance.now(),
      ...(decay === undefined ? {} : { decay }),
      onInstant: (k) => bar.update(k, `${new Date(from + (k - 1) * schedule.intervalMs).toISOString()}`),
      onRow: (row: QuoteRow) => {
        writer.write(row);
        parquet.add(row);
        cells.add(row);
        lines.add(row);
      },
    });
  } finally {
    writer.close();
    parquet.close();
    await log?.close();
  }
  bar.finish();
  const span = fold.span;
  if (span === null) throw new UsageError(`no records in ${source} up to ${to}`);
  if (from > span.last)
    ctx.err(
      `warning: the range ${from}..${to} starts after the data folded (${span.first}..${span.last}); every book may be stale`,
    );
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
  const summaryCells = cells.build(schedule.requests, schedule.strategies);
  const counts = cells.counts(schedule.strategies);
  const summaryParquet = new ParquetRows(join(out, 'summary.parquet'), CELL_COLUMNS);
  for (const c of summaryCells) summaryParquet.add(c);
  summaryParquet.close();
  const run = {
    from,
    to,
    source,
    intervalMs: schedule.intervalMs,
    config,
    quotes: timing.quotes,
    recordsFolded: timing.recordsFolded,
    foldMs: timing.foldMs,
    solveMs: timing.solveMs,
  };
  const decayRows = decay?.summaries(1) ?? null;
  writeFileSync(
    join(out, 'summary.json'),
    `${JSON.stringify({ ...run, strategies: counts, cells: summaryCells, decay: decayRows }, null, 2)}\n`,
  );
  writeFileSync(
    join(out, 'report.html'),
    reportHtml({
      title: 'Routing backtest',
      source,
      from,
      to,
      schedule,
      counts,
      cells: summaryCells,
      decay: decayRows,
      series: lines.build(),
      figures,
    }),
  );
  ctx.err(
    `backtest: ${timing.quotes} quotes at ${timing.instants} instants; folded ${timing.recordsFolded} records at ${Math.round(foldPerS)}/s, solved ${Math.round(quotesPerS)} quotes/s; wrote ${out}/{quotes.csv,quotes.jsonl,quotes.parquet,summary.json,summary.parquet,report.html}`,
  );
  return 0;
}

function readSchedule(path: string): Schedule {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--schedule: cannot read ${path}: ${errorMessage(e)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--schedule: ${path} is not valid JSON (${errorMessage(e)})`);
  }
  try {
    return parseSchedule(value);
  } catch (e) {
    if (e instanceof ScheduleError) throw new UsageError(e.message);
    throw e;
  }
}
