/**
 * `npm run bench [-- <scenario...>] [-- --json] [-- --compare-kafka-clients] [-- --baseline=<dir>]`:
 * runs the benchmark scenarios and prints a table; with --json, one {"scenario","metric","value",
 * "unit"} object per line at the end; --compare-kafka-clients adds the @platformatic/kafka row to
 * `log` (installed on demand, outside the lock file); --baseline names a checkout of another
 * revision, built (`npm run build`) in that directory: scenario `explain` then times its solver
 * too, interleaved with this one.
 */
import { cpus } from 'node:os';
import { benchApi } from './api';
import { benchApiExplain } from './api-explain';
import { benchAudit } from './audit';
import type { BenchRow } from './bench-row';
import { benchExplain } from './explain';
import { benchFleet } from './fleet';
import { benchFold } from './fold';
import { benchHostile } from './hostile';
import { benchImport } from './import';
import { benchIngestor } from './ingestor';
import { benchLog } from './log';
import { benchLongevity } from './longevity';
import { benchLongevityAsOf } from './longevity-asof';
import { benchReplay } from './replay';
import { benchRequest } from './request';
import { benchSoak } from './soak';
import { benchSolve } from './solve';
import { API_FLOOD, benchStreamFlood, HOSTILE_FLOOD } from './stream-flood';
import { benchTools } from './tools';
import { benchStore } from './log-store';

type Options = { readonly flags: readonly string[]; readonly baseline: string | null };
type Scenario = { name: string; run: (o: Options) => BenchRow[] | Promise<BenchRow[]> };

const FLAGS = ['--json', '--compare-kafka-clients'];

const SCENARIOS: Scenario[] = [
  { name: 'solve', run: () => benchSolve() },
  { name: 'explain', run: (o) => benchExplain(1500, o.baseline) },
  { name: 'fold', run: () => benchFold() },
  { name: 'replay', run: () => benchReplay() },
  {
    name: 'log',
    run: (o) => benchLog({ compareKafkaClients: o.flags.includes('--compare-kafka-clients') }),
  },
  { name: 'store', run: () => benchStore() },
  { name: 'ingestor', run: () => benchIngestor() },
  { name: 'api', run: async () => [...(await benchApi()), ...(await benchStreamFlood(API_FLOOD))] },
  { name: 'api-explain', run: () => benchApiExplain() },
  { name: 'request', run: () => benchRequest() },
  { name: 'tools', run: () => benchTools() },
  {
    name: 'hostile',
    run: async () => [...(await benchHostile()), ...(await benchStreamFlood(HOSTILE_FLOOD))],
  },
  // The stream flood of `api` and `hostile` alone.
  {
    name: 'stream-flood',
    run: async () => [...(await benchStreamFlood(API_FLOOD)), ...(await benchStreamFlood(HOSTILE_FLOOD))],
  },
  { name: 'longevity', run: () => benchLongevity() },
  { name: 'longevity-asof', run: () => benchLongevityAsOf() },
  { name: 'soak', run: () => benchSoak() },
  { name: 'fleet', run: () => benchFleet() },
  { name: 'audit', run: (o) => benchAudit(o.baseline) },
  { name: 'import', run: () => benchImport() },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const flags = args.filter((a) => a.startsWith('--'));
  const baseline = args.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length) ?? null;
  const badFlags = flags.filter((f) => !FLAGS.includes(f) && !f.startsWith('--baseline='));
  if (badFlags.length > 0) {
    console.error(`unknown flag(s): ${badFlags.join(', ')}; known: ${FLAGS.join(', ')}, --baseline=<dir>`);
    process.exit(2);
  }
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
    const got = await s.run({ flags, baseline });
    for (const r of got)
      console.log(`${r.scenario.padEnd(12)} ${r.metric.padEnd(40)} ${fmt(r.value).padStart(14)} ${r.unit}`);
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
