/**
 * `npm run bench -- import`: replay import on a large generated incremental_book_L2 file (gzip, in
 * tardis.dev's format; IMPORT_BENCH_MB of CSV, default 2048), against `gzip -dc file > /dev/null`
 * on the same file, interleaved (gzip, import, gzip, import), fastest of each reported. The
 * target: the import at least half as fast as gzip -dc (time ratio <= 2), peak RSS <= 300 MB.
 * The generated file is kept in the temp directory for the next run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './bench-row';
import { generateTardisL2 } from './import-gen';

const ROUNDS = 2;

function run(
  cmd: string,
  args: readonly string[],
  stdout: 'ignore' | 'pipe',
): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', stdout, 'inherit'] });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - t0, out }) : reject(new Error(`${cmd} exited ${code}`)),
    );
  });
}

export async function benchImport(): Promise<BenchRow[]> {
  const mb = Number(process.env.IMPORT_BENCH_MB ?? 2048);
  const file = join(tmpdir(), `route-service-bench-tardis-l2-${mb}mb-v1.csv.gz`);
  let rows: number;
  const rowsFile = `${file}.rows`;
  if (existsSync(file) && existsSync(rowsFile)) rows = Number(readFileSync(rowsFile, 'utf8'));
  else {
    const t0 = performance.now();
    rows = await generateTardisL2(`${file}.partial`, mb * 1e6);
    renameSync(`${file}.partial`, file);
    writeFileSync(rowsFile, String(rows));
    console.error(
      `import: generated ${file} (${rows} rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const load = loadavg()[0]!;
  const out = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const child = join(__dirname, 'import-child.js');
  let gzipMs = Infinity;
  let gzipCpuS = Infinity;
  let importMs = Infinity;
  let importCpuS = Infinity;
  let rssKb = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // bash's `times` gives the CPU time of the gzip it ran (user and system, in its second line).
      const g = await run('bash', ['-c', 'gzip -dc "$0" > /dev/null; times', file], 'pipe');
      gzipMs = Math.min(gzipMs, g.ms);
      const cpu = [...(g.out.split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)];
      gzipCpuS = Math.min(
        gzipCpuS,
        cpu.reduce((a, m) => a + Number(m[1]) * 60 + Number(m[2]), 0),
      );
      const r = await run(process.execPath, [child, '--format', 'tardis-csv', '--out', out, file], 'pipe');
      const result = JSON.parse(r.out) as { code: number; maxRssKb: number; cpuS: number; err: string[] };
      if (result.code !== 0) throw new Error(`import exited ${result.code}: ${result.err.join('\n')}`);
      importMs = Math.min(importMs, r.ms);
      importCpuS = Math.min(importCpuS, result.cpuS);
      rssKb = Math.max(rssKb, result.maxRssKb);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const gz = statSync(file).size;
  const row = (metric: string, value: number, unit: string): BenchRow => ({
    scenario: 'import',
    metric,
    value,
    unit,
  });
  return [
    row('load average (1 min) at start', load, ''),
    row('input rows (incremental_book_L2)', rows, 'rows'),
    row('input size gzip / CSV', gz / 1e6, `MB / ${mb} MB`),
    row('gzip -dc > /dev/null', gzipMs / 1000, 's'),
    row('replay import (whole command)', importMs / 1000, 's'),
    row('import time / gzip -dc time (target <= 2)', importMs / gzipMs, 'x'),
    row('CPU time, gzip -dc / import (all threads)', gzipCpuS, `s / ${importCpuS.toFixed(2)} s`),
    row('import throughput', rows / (importMs / 1000), 'rows/s'),
    row('import throughput (CSV)', mb / (importMs / 1000), 'MB/s'),
    row('peak RSS (target <= 300)', rssKb / 1024, 'MB'),
  ];
}
