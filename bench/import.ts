/**
 * `npm run bench -- import`: replay import of two venues' generated days of incremental_book_L2
 * (gzip, tardis.dev's format; IMPORT_BENCH_MB of CSV in all, default 2048: binance BTCUSDT and okex
 * BTC-USDT, half each) against `gzip -dc <both files> > /dev/null`, interleaved (gzip, import as
 * typed (every file read on the main thread), import with `--threads 2` (each file read, inflated
 * and parsed on a thread of its own), twice), fastest of each; then a backtest with its HTML report
 * over the first hour of the imported recording. The targets: the import at least half as fast as gzip -dc (time ratio <= 2),
 * peak RSS <= 300 MB. The generated files are kept in the temp directory for the next run. With
 * `--baseline=<dir>` (a built checkout) its import runs too, both ways, interleaved with this one's.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchRow } from './bench-row';
import { generateTardisL2, type GeneratedBook } from './import-gen';
import { spawnHeld } from './processes';

const ROUNDS = 2;
const BOOKS: readonly GeneratedBook[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', seed: 42 },
  { exchange: 'okex', symbol: 'BTC-USDT', seed: 7 },
];
const DAY = '2024-03-01T00';

function run(
  cmd: string,
  args: readonly string[],
  stdout: 'ignore' | 'pipe',
): Promise<{ ms: number; out: string }> {
  return new Promise((resolveRun, reject) => {
    const t0 = performance.now();
    const child = spawnHeld(cmd, cmd, args, { stdio: ['ignore', stdout, 'inherit'] });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolveRun({ ms: performance.now() - t0, out })
        : reject(new Error(`${cmd} exited ${code}`)),
    );
  });
}

/** The generated files (made once, then kept): their paths and rows. */
async function inputs(mb: number): Promise<{ files: string[]; rows: number }> {
  const files: string[] = [];
  let rows = 0;
  for (const book of BOOKS) {
    const file = join(
      tmpdir(),
      `route-service-bench-tardis-${book.exchange}-${mb / BOOKS.length}mb-v2.csv.gz`,
    );
    const count = `${file}.rows`;
    if (!existsSync(file) || !existsSync(count)) {
      const t0 = performance.now();
      const n = await generateTardisL2(`${file}.partial`, (mb / BOOKS.length) * 1e6, book);
      renameSync(`${file}.partial`, file);
      writeFileSync(count, String(n));
      console.error(
        `import: generated ${file} (${n} rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    files.push(file);
    rows += Number(readFileSync(count, 'utf8'));
  }
  return { files, rows };
}

export async function benchImport(baseline: string | null = null): Promise<BenchRow[]> {
  const mb = Number(process.env.IMPORT_BENCH_MB ?? 2048);
  const { files, rows } = await inputs(mb);
  const load = loadavg()[0]!;
  const out = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const child = join(__dirname, 'import-child.js');
  let gzipMs = Infinity;
  let gzipCpuS = Infinity;
  const run0 = { ms: Infinity, cpuS: Infinity, rssKb: 0 };
  const typed = { ...run0, name: 'as typed', child, flags: [] as string[] };
  const threads = { ...run0, name: '--threads 2', child, flags: ['--threads', '2'] };
  const base = baseline === null ? '' : join(resolve(baseline), 'dist/bench/import-child.js');
  // The baseline's runs alternate with this checkout's, each way.
  const runs =
    baseline === null
      ? [typed, threads]
      : [
          { ...typed, name: 'baseline as typed', child: base },
          typed,
          { ...threads, name: 'baseline --threads 2', child: base },
          threads,
        ];
  let backtest: { ms: number; line: string };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // bash's `times` gives the CPU time of the gzip it ran (user and system, in its second line).
      const g = await run('bash', ['-c', 'gzip -dc "$@" > /dev/null; times', 'gzip', ...files], 'pipe');
      gzipMs = Math.min(gzipMs, g.ms);
      const cpu = [...(g.out.split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)];
      gzipCpuS = Math.min(
        gzipCpuS,
        cpu.reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0),
      );
      for (const v of runs) {
        // Each import writes a new recording, as a first import does (replacing one also deletes
        // the old 1.4 GB file, inside the import's time, which a run's position should not decide).
        rmSync(join(out, 'tardis.jsonl'), { force: true });
        const r = await run(
          process.execPath,
          [v.child, '--format', 'tardis-csv', '--out', out, ...v.flags, ...files],
          'pipe',
        );
        const result = JSON.parse(r.out) as { code: number; maxRssKb: number; cpuS: number; err: string[] };
        if (result.code !== 0) throw new Error(`import exited ${result.code}: ${result.err.join('\n')}`);
        v.ms = Math.min(v.ms, r.ms);
        v.cpuS = Math.min(v.cpuS, result.cpuS);
        v.rssKb = Math.max(v.rssKb, result.maxRssKb);
      }
    }
    backtest = await backtestOver(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const gz = files.reduce((a, f) => a + statSync(f).size, 0);
  const row = (metric: string, value: number, unit: string): BenchRow => ({
    scenario: 'import',
    metric,
    value,
    unit,
  });
  const quotes = Number(/^backtest: (\d+) quotes/.exec(backtest.line)?.[1] ?? NaN);
  return [
    row('load average (1 min) at start', load, ''),
    row('input rows (incremental_book_L2, 2 venues)', rows, 'rows'),
    row('input size gzip / CSV', gz / 1e6, `MB / ${mb} MB`),
    row('gzip -dc > /dev/null', gzipMs / 1000, 's'),
    ...runs.flatMap((v) => [
      row(`replay import ${v.name} (whole command)`, v.ms / 1000, 's'),
      row(`${v.name}: import time / gzip -dc time (target <= 2)`, v.ms / gzipMs, 'x'),
      row(`${v.name}: CPU time, gzip -dc / import (all threads)`, gzipCpuS, `s / ${v.cpuS.toFixed(2)} s`),
      row(`${v.name}: import throughput`, rows / (v.ms / 1000), 'rows/s'),
      row(`${v.name}: import throughput (CSV)`, mb / (v.ms / 1000), 'MB/s'),
      row(`${v.name}: peak RSS (target <= 300)`, v.rssKb / 1024, 'MB'),
    ]),
    row('backtest of its first hour (with report.html)', backtest.ms / 1000, `s, ${quotes} quotes`),
  ];
}

/** `replay backtest` over the imported recording's first hour, every second, as typed (its own process). */
async function backtestOver(dir: string): Promise<{ ms: number; line: string }> {
  const root = resolve(__dirname, '..', '..');
  const report = join(dir, 'report');
  const args = [
    join(root, 'dist/apps/replay/src/main.js'),
    'backtest',
    ...['--events', dir, '--schedule', join(root, 'replay-data/schedule.tardis.json')],
    ...['--from', `${DAY}:00:10Z`, '--to', `${DAY}:59:59Z`, '--out', report, '--no-decay'],
  ];
  const t0 = performance.now();
  const child = spawnHeld('backtest', process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const ms = performance.now() - t0;
  if (code !== 0 || !existsSync(join(report, 'report.html')))
    throw new Error(`backtest exited ${code}: ${err}`);
  return { ms, line: err.trim().split('\n').at(-1) ?? '' };
}
