/**
 * `npm run bench [-- <scenario...> | all] [-- --json] [-- --compare-kafka-clients] [-- --baseline=<dir>]`
 * (BENCHMARKS.md "Running the bench"). With no scenario named, the default set: every scenario
 * not marked long in bench/scenarios.ts (within 5 minutes on the project's 2-core machine); `all`
 * adds the long ones. Each scenario's rows are printed as it finishes (with --json, one
 * {"scenario","metric","value","unit"} object a line after its table). A scenario whose
 * prerequisite is missing is skipped with one line; one that throws is reported and the run goes
 * on. Exit status: 0 when every scenario that ran succeeded, 1 when one failed or left a process
 * running, 2 for bad arguments, 128 + n on signal n (everything the bench started is stopped first).
 */
import { cpus, loadavg } from 'node:os';
import { inspect } from 'node:util';
import type { BenchRow } from './bench-row';
import { missing } from './prerequisites';
import { closeAll, holding, killAll, settle, stopAll } from './processes';
import { SCENARIOS, type Options, type Scenario } from './scenarios';

const FLAGS = ['--json', '--compare-kafka-clients'];

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run bench -- [scenario... | all] [--json] [--compare-kafka-clients] [--baseline=<dir>]`,
  );
  console.error(`scenarios: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

function choose(names: readonly string[]): Scenario[] {
  const unknown = names.filter((n) => n !== 'all' && !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) usage(`unknown scenario(s): ${unknown.join(', ')}`);
  if (names.includes('all')) return [...SCENARIOS];
  if (names.length > 0) return SCENARIOS.filter((s) => names.includes(s.name));
  return SCENARIOS.filter((s) => s.long === undefined);
}

/** Where the run is: for the signal handler's message. */
let current: string | null = null;
/** Set by a signal: the run ends in its handler, and a scenario failing meanwhile is no failure. */
let interrupted = false;

/** On `signal`: stop everything the bench started, then exit with `code`; a second one kills at once. */
function onSignal(signal: NodeJS.Signals, code: number): void {
  process.once(signal, () => {
    interrupted = true;
    const what = holding().join(', ') || 'nothing';
    console.error(`bench: ${signal}${current === null ? '' : ` during ${current}`}; stopping ${what}`);
    process.once(signal, () => {
      killAll();
      process.exit(code);
    });
    void closeAll().finally(() => process.exit(code));
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flags = args.filter((a) => a.startsWith('--'));
  const bad = flags.filter((f) => !FLAGS.includes(f) && !f.startsWith('--baseline='));
  if (bad.length > 0) usage(`unknown flag(s): ${bad.join(', ')}`);
  const json = flags.includes('--json');
  const options: Options = {
    compareKafkaClients: flags.includes('--compare-kafka-clients'),
    baseline: flags.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length) ?? null,
  };
  const names = args.filter((a) => !a.startsWith('--'));
  const chosen = choose(names);
  const load = (): string => loadavg()[0]!.toFixed(1);
  console.log(`# node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, load ${load()}`);
  if (names.length === 0) {
    const left = SCENARIOS.filter((s) => s.long !== undefined);
    console.log(`# default set: ${chosen.map((s) => s.name).join(', ')}`);
    console.log(`# left out (long; run by name, or all of them with \`npm run bench -- all\`):`);
    for (const s of left) {
      const why = missing(s.needs ?? []);
      console.log(`#   ${s.name}: ${s.long}${why === null ? '' : `; would be skipped here: ${why}`}`);
    }
  }
  const started = performance.now();
  const skipped: string[] = [];
  const failed: string[] = [];
  for (const s of chosen) {
    const why = missing(s.needs ?? []);
    if (why !== null) {
      console.log(`skip ${s.name}: ${why}`);
      skipped.push(s.name);
      continue;
    }
    current = s.name;
    const t0 = performance.now();
    const load0 = load();
    let rows: BenchRow[] = [];
    let failure: unknown;
    try {
      rows = await s.run(options);
    } catch (e) {
      failure = e;
    }
    // Its processes were stopped under it, so what it did is void: the signal handler ends the run.
    if (interrupted) return new Promise<never>(() => undefined);
    if (failure !== undefined) {
      console.log(
        `fail ${s.name}: ${failure instanceof Error ? failure.message.split('\n')[0] : inspect(failure)}`,
      );
      console.error(failure);
      failed.push(s.name);
    }
    // What the scenario still holds after its last kills have landed, it left running.
    await settle(2000);
    const left = await stopAll();
    if (left.length > 0) {
      console.error(`bench: ${s.name} left running: ${left.join(', ')}; stopped`);
      if (!failed.includes(s.name)) failed.push(s.name);
    }
    current = null;
    for (const r of rows)
      console.log(`${r.scenario.padEnd(12)} ${r.metric.padEnd(52)} ${fmt(r.value).padStart(14)} ${r.unit}`);
    if (json) for (const r of rows) console.log(JSON.stringify(r));
    console.log(`# ${s.name}: ${seconds(t0)} s, load ${load0} -> ${load()}`);
  }
  console.log(
    `# done in ${seconds(started)} s: ${chosen.length - skipped.length - failed.length} ran` +
      `, ${skipped.length} skipped${skipped.length > 0 ? ` (${skipped.join(', ')})` : ''}` +
      `, ${failed.length} failed${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`,
  );
  process.exitCode = failed.length > 0 ? 1 : 0;
}

function seconds(t0: number): string {
  return ((performance.now() - t0) / 1000).toFixed(1);
}

function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}

onSignal('SIGINT', 130);
onSignal('SIGTERM', 143);
onSignal('SIGHUP', 129);
// Whatever way the process ends (an uncaught error included), nothing it started stays.
process.on('exit', killAll);
main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
