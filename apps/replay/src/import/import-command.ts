import { errorMessage } from '@app/retry';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import {
  ccxtCatalog,
  fileChunks,
  IMPORT_FORMATS,
  ImportUsageError,
  OutputFile,
  parseMarketsFile,
  parseSymbolsFile,
  problemText,
  runImport,
  StrictStop,
  type ImportFormat,
  type ImportResult,
  type Problem,
} from '@app/import';
import { UsageError } from '@app/config';
import { integer } from '../cli/args';
import type { CliContext } from '../cli/context';
import { marketsLine, summaryLines, unmappedLines } from './import-report';

interface ImportOptions {
  readonly format: ImportFormat;
  readonly out: string;
  readonly name: string;
  readonly symbols?: string;
  readonly markets?: string;
  readonly skipUnmapped?: boolean;
  readonly strict?: boolean;
  readonly threads: number;
}

/** Problems printed on stderr; all of them go to <name>.problems.txt. */
const SHOWN_PROBLEMS = 20;
/**
 * Inflated bytes the files read on this thread may have waiting, in all (4 MB a file for two, less
 * for more: a month of days is opened at once, most of them waiting for their time to come), enough
 * for zlib to stay ahead of the parser. Not on a --threads thread: there the chunks would outlive
 * its young generation and hold 60 MB a thread until a full GC (the reason gzip is read 64 KB at a
 * time, files.ts).
 */
const AHEAD_IN_ALL = 8 << 20;
const AHEAD_PER_FILE = 4 << 20;

const HELP = `
Reads tardis.dev order book data and writes <out>/<name>.jsonl: events.md records (book records,
one per message, and a venue and a market record per venue and market) that --replay DIR,
replay backtest --events DIR and every other reader of recordings take as they are.
  tardis-csv          incremental_book_L2 and book_snapshot_N CSV files (the header tells which)
  tardis-normalized   book_change and book_snapshot messages (tardis-machine, tardis-node), JSON Lines
Files may be gzip or plain; several files (days, symbols, exchanges) are merged by local time.
Exchanges map to ccxt ids and symbols to unified ones by the rules in docs/replay.md; --symbols
adds or overrides entries. A malformed row, a negative or non-finite number, a row out of time
order or a change that crosses a book is reported (file:line) and counted, and the import goes on.

Exit status: 0 written; 1 stopped by --strict at a bad row; 2 bad usage, an unreadable input, or
symbols that cannot be mapped (every one is named; nothing is written); 3 no book data at all.

Examples:
  route-service replay import --format tardis-csv --out data/ \\
    binance_incremental_book_L2_2024-03-01_BTCUSDT.csv.gz coinbase_incremental_book_L2_2024-03-01_BTC-USD.csv.gz
  route-service replay import --format tardis-normalized --out data/ --symbols symbols.json messages.jsonl`;

/** `import --format F --out DIR FILES...`: tardis.dev data into a recording. */
export function registerImport(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('import')
    .summary('read tardis.dev order book data (CSV or normalized JSON) into a recording')
    .description('Import tardis.dev datasets and normalized feeds as events.md JSON Lines.')
    .addOption(new Option('--format <format>', 'input format').choices(IMPORT_FORMATS).makeOptionMandatory())
    .requiredOption('--out <dir>', 'output directory (created if missing)')
    .option('--name <name>', 'output file name, without .jsonl', 'tardis')
    .option(
      '--symbols <file>',
      'JSON: {"exchanges": {tardis id: venue id}, "symbols": {tardis id: {native: "BASE/QUOTE"}}}',
    )
    .option(
      '--markets <file>',
      'JSON: {venue id: {"BASE/QUOTE" or "*": {takerFeeRate, amountStep, minAmount, minCost, maxAmount}}}',
    )
    .option('--skip-unmapped', 'leave out rows whose exchange or symbol cannot be mapped (default: stop)')
    .option('--strict', 'stop at the first bad row (default: report, count and go on)')
    .addOption(
      new Option(
        '--threads <n>',
        'read, inflate and parse up to n incremental_book_L2 files on threads of their own, one a file (the output is the same)',
      )
        .argParser(integer(0, 64))
        .default(0),
    )
    .argument('<files...>', 'input files')
    .addHelpText('after', HELP)
    .action(async (files: string[], o: ImportOptions) => done(await importData(files, o, ctx)));
}

async function importData(files: readonly string[], o: ImportOptions, ctx: CliContext): Promise<number> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(o.name))
    throw new UsageError(`--name must be a plain file name (letters, digits, . _ -), got '${o.name}'`);
  const paths = files.map((f) => resolve(ctx.cwd, f));
  // A named pipe is read like a file (a download piped straight in).
  const readable = (p: string): boolean => existsSync(p) && (statSync(p).isFile() || statSync(p).isFIFO());
  const missing = files.filter((_, i) => !readable(paths[i]!));
  if (missing.length > 0) throw new UsageError(`no such file: ${missing.join(', ')}`);
  const symbols = o.symbols === undefined ? null : readJson(o.symbols, ctx, '--symbols', parseSymbolsFile);
  const markets = o.markets === undefined ? null : readJson(o.markets, ctx, '--markets', parseMarketsFile);
  const dir = resolve(ctx.cwd, o.out);
  mkdirSync(dir, { recursive: true });
  // Stopped (Ctrl-C, a kill): nothing of the import stays, even while it waits for a slow input.
  // Listening before the temporary file exists: a signal in between would otherwise kill the
  // process by default and leave the file.
  //
  // The process then ends by the same signal (its default action, so a shell sees 130 or 143),
  // not by process.exit: from Node 22 on, exit waits for libuv's thread pool, where the read of a
  // named pipe blocks until its writer sends more (the process would never end).
  let made: ImportFiles | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    made?.discard();
    ctx.err('import interrupted: nothing written');
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const output = new ImportFiles(dir, o.name);
  made = output;
  let shown = 0;
  const report = (p: Problem): void => {
    output.problem(problemText(p));
    if (++shown <= SHOWN_PROBLEMS) ctx.err(problemText(p));
  };
  const totalBytes = paths.reduce((a, p) => a + statSync(p).size, 0);
  const bar = ctx.progress('import', Math.max(1, Math.ceil(totalBytes / 1e6)), 'MB read');
  const read = new Array<number>(paths.length).fill(0);
  let shownMb = 0;
  const ahead = Math.min(AHEAD_PER_FILE, Math.floor(AHEAD_IN_ALL / paths.length));
  const t0 = performance.now();
  let result: ImportResult;
  try {
    result = await runImport({
      format: o.format,
      sources: paths.map((p, i) => ({
        name: files[i]!,
        chunks: fileChunks(p, (n) => (read[i] = n), ahead),
        // A named pipe cannot be read twice (a thread reads the header first).
        file: statSync(p).isFile() ? { path: p, onRead: (n: number) => (read[i] = n) } : undefined,
      })),
      threads: o.threads,
      symbols,
      markets,
      skipUnmapped: o.skipUnmapped === true,
      strict: o.strict === true,
      catalog: ccxtCatalog,
      write: (chunk, release) => output.recording.write(chunk, release),
      report,
      onChunk: () => {
        // Whole MB, told only when it grows (cli-progress cannot estimate from repeated values).
        const mb = Math.floor(read.reduce((a, b) => a + b, 0) / 1e6);
        if (mb > shownMb) bar.update((shownMb = mb));
        return output.recording.drained();
      },
    });
  } catch (e) {
    output.discard();
    bar.finish();
    if (e instanceof StrictStop) {
      ctx.err(problemText(e.problem));
      ctx.err('import stopped at the first bad row (--strict): nothing written');
      return 1;
    }
    if (e instanceof ImportUsageError) throw new UsageError(e.message);
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  bar.finish();
  if (!result.ok || result.records === 0) {
    output.discard();
    if (!result.ok) {
      for (const line of unmappedLines(result)) ctx.err(line);
      return 2;
    }
    ctx.err(`import: no book data in ${files.length} file(s): nothing written`);
    return 3;
  }
  await output.commit();
  ctx.err(marketsLine(result, markets !== null));
  for (const line of summaryLines(
    result,
    output.recording.path,
    performance.now() - t0,
    shown > SHOWN_PROBLEMS,
  ))
    ctx.err(line);
  return 0;
}

/** The import's files: the recording, and the list of problems once there is one; kept or dropped together. */
class ImportFiles {
  readonly recording: OutputFile;
  private problems: OutputFile | null = null;

  constructor(
    private readonly dir: string,
    private readonly name: string,
  ) {
    this.recording = new OutputFile(join(dir, `${name}.jsonl`));
  }

  problem(line: string): void {
    this.problems ??= new OutputFile(join(this.dir, `${this.name}.problems.txt`));
    this.problems.write(Buffer.from(`${line}\n`));
  }

  async commit(): Promise<void> {
    await this.recording.commit();
    await this.problems?.commit();
  }

  discard(): void {
    this.recording.discard();
    this.problems?.discard();
  }
}

function readJson<T>(file: string, ctx: CliContext, flag: string, parse: (v: unknown, name: string) => T): T {
  let text: string;
  try {
    text = readFileSync(resolve(ctx.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`${flag}: cannot read ${file}: ${errorMessage(e)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag}: ${file} is not valid JSON (${errorMessage(e)})`);
  }
  try {
    return parse(value, file);
  } catch (e) {
    if (e instanceof ImportUsageError) throw new UsageError(e.message);
    throw e;
  }
}
