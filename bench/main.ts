/**
 * `npm run bench [-- <scenario...>] [-- --json]`: runs the benchmark scenarios and prints a table;
 * with --json, one {"scenario","metric","value","unit"} object per line at the end.
 */
import { cpus } from 'node:os';
import { benchApi } from './api';
import type { BenchRow } from './bench-row';
import { benchFold } from './fold';
import { benchIngestor } from './ingestor';
import { benchLog } from './log';
import { benchLongevity } from './longevity';
import { benchReplay } from './replay';
import { benchSolve } from './solve';

type Scenario = { name: string; run: () => BenchRow[] | Promise<BenchRow[]> };

const SCENARIOS: Scenario[] = [
  { name: 'solve', run: () => benchSolve() },
  { name: 'fold', run: () => benchFold() },
  { name: 'replay', run: () => benchReplay() },
  { name: 'log', run: () => benchLog() },
  { name: 'ingestor', run: () => benchIngestor() },
  { name: 'api', run: () => benchApi() },
  { name: 'longevity', run: () => benchLongevity() },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(
      `unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  const chosen = names.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => names.includes(s.name));
  console.log(`# node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`);
  const rows: BenchRow[] = [];
  for (const s of chosen) {
    const got = await s.run();
    for (const r of got)
      console.log(`${r.scenario.padEnd(12)} ${r.metric.padEnd(36)} ${fmt(r.value).padStart(14)} ${r.unit}`);
    rows.push(...got);
  }
  if (json) for (const r of rows) console.log(JSON.stringify(r));
}

function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
