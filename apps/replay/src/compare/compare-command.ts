import { errorMessage } from '@app/retry';
import { UsageError } from '@app/config';
import { Command, Option } from 'commander';
import { configOption } from '@app/config';
import { journalInRange, replayInput, sha256Hex, type JournalOccurrence } from '@app/audit';
import { solve, SOLVER_VERSION } from '@app/routing';
import { decimal, instant, integer } from '../cli/args';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';
import { quoteDelta, type QuoteDelta } from './delta';
import { otherSolver, type OtherSolver } from './solver-build';

interface CompareOptions {
  readonly from: number;
  readonly to: number;
  readonly solver: string;
  readonly dataDir?: string;
  readonly maxBps: number;
  readonly worst: number;
  readonly strict?: boolean;
  readonly json?: boolean;
}

const HELP = `
A shadow-solver gate: every quote journalled with calculatedAt in [--from, --to] is re-solved on
its own snapshot (the books rebuilt as 'replay quote' rebuilds them) by this build and by another
one, and the two answers are compared: byte-identical, or different by how much the other's
effective rate (output per input) differs, in bps (positive: the other build converts better;
+-10000 when only one of them routes).

--solver is a directory holding a build (a dist/ directory, or a checkout with a built dist/), or
a git ref of this repository (a tag, branch or commit), exported with git archive into a temporary
directory and built there with its own scripts/build.mjs, then removed.

stdout: the summary line, then the --worst largest deltas (or with --json one JSON text per
quote). stderr: one line per quote whose answers differ.
Exit status: 0 every |delta| <= --max-bps (and, with --strict, every answer byte-identical); 1
otherwise, or when a quote cannot be replayed; 3 nothing journalled in the range; 2 usage.

Examples:
  route-service replay compare --from 2026-08-10T12:00:00Z --to 2026-08-10T13:00:00Z --solver v1.4.0
  route-service replay compare --from 1786300000000 --to 1786300060000 --solver ../next/dist --max-bps 0.5`;

/** `compare --solver <dir|ref> --from T --to T`: this build against another on journalled quotes. */
export function registerCompare(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('compare')
    .summary('re-solve journalled quotes with this build and another; exit 1 above --max-bps')
    .description('Compare this solver with another build on every quote journalled in a time range.')
    .addOption(new Option('--from <time>', 'first calculatedAt').argParser(instant).makeOptionMandatory())
    .addOption(new Option('--to <time>', 'last calculatedAt').argParser(instant).makeOptionMandatory())
    .addOption(
      new Option(
        '--solver <dir|ref>',
        'the other build: a dist directory or a git ref',
      ).makeOptionMandatory(),
    )
    .addOption(configOption('replay', 'data-dir'))
    .addOption(
      new Option('--max-bps <n>', 'largest |delta| in bps that passes')
        .argParser(decimal(0, 10_000))
        .default(0),
    )
    .addOption(new Option('--worst <n>', 'worst cases listed').argParser(integer(0, 10_000)).default(10))
    .option('--strict', 'fail on any byte difference, even at 0 bps')
    .option('--json', 'one JSON text per quote on stdout instead of the worst cases')
    .addHelpText('after', HELP)
    .action(async (o: CompareOptions) => done(await compare(o, ctx)));
}

interface Row extends QuoteDelta {
  readonly where: string;
  readonly requestId: string;
  /** This build reproduced the journalled response. */
  readonly reproduced: boolean;
}

async function compare(o: CompareOptions, ctx: CliContext): Promise<number> {
  if (o.to < o.from) throw new UsageError(`--to (${o.to}) must not be before --from (${o.from})`);
  const log = openReadLog(o.dataDir, ctx);
  let other: OtherSolver | undefined;
  try {
    other = otherSolver(o.solver, ctx.cwd);
    const items: JournalOccurrence[] = [];
    for await (const occ of journalInRange(log, o.from, o.to)) items.push(occ);
    const range = `${new Date(o.from).toISOString()} .. ${new Date(o.to).toISOString()}`;
    if (items.length === 0) {
      ctx.err(`compare: no journalled quote calculated in ${range}`);
      return 3;
    }
    ctx.err(
      `compare: this build (solver ${SOLVER_VERSION}) against ${other.label} (solver ${other.version})`,
    );
    const rows: Row[] = [];
    let unreproducible = 0;
    const bar = ctx.progress('compare', items.length, 'quotes');
    for (const [i, occ] of items.entries()) {
      const where = `${occ.topic}/${occ.partition}@${occ.offset}`;
      if (!occ.ok) {
        unreproducible++;
        ctx.err(`NOT REPRODUCIBLE ${where}: ${occ.problem}`);
        continue;
      }
      try {
        const { input } = await replayInput(log, occ.record);
        const result = solve(input);
        const body = JSON.stringify(result);
        const theirs = other.solve(input);
        const d = quoteDelta(body, result, JSON.stringify(theirs), theirs);
        const row = {
          ...d,
          where,
          requestId: occ.record.requestId,
          reproduced: sha256Hex(body) === occ.record.responseSha256,
        };
        rows.push(row);
        if (o.json === true) ctx.out(`${JSON.stringify(row)}\n`);
        if (!d.identical)
          ctx.err(
            `DIFFERENT ${where} requestId ${JSON.stringify(row.requestId)}: this ${d.value}, other ${d.otherValue}, ${signed(d.bps)} bps`,
          );
      } catch (e) {
        unreproducible++;
        ctx.err(`NOT REPRODUCIBLE ${where}: ${errorMessage(e)}`);
      }
      bar.update(i + 1, `different ${rows.filter((r) => !r.identical).length}`);
    }
    bar.finish();
    return report(rows, unreproducible, range, o, ctx);
  } finally {
    other?.dispose();
    await log.close();
  }
}

const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(4)}`;

function report(
  rows: readonly Row[],
  unreproducible: number,
  range: string,
  o: CompareOptions,
  ctx: CliContext,
): number {
  const different = rows.filter((r) => !r.identical);
  const worst = [...different].sort(
    (a, b) => Math.abs(b.bps) - Math.abs(a.bps) || (a.where < b.where ? -1 : 1),
  );
  const maxAbs = worst.length === 0 ? 0 : Math.abs(worst[0]!.bps);
  const over = different.filter((r) => Math.abs(r.bps) > o.maxBps).length;
  const reproduced = rows.filter((r) => r.reproduced).length;
  const summary = `compare ${range}: ${rows.length + unreproducible} quotes; identical ${rows.length - different.length}, different ${different.length} (${over} above ${o.maxBps} bps, max |delta| ${maxAbs.toFixed(4)} bps), not reproducible ${unreproducible}; this build reproduces ${reproduced} journalled responses`;
  if (o.json === true) ctx.err(summary);
  else {
    ctx.out(`${summary}\n`);
    for (const r of worst.slice(0, o.worst))
      ctx.out(
        `  ${signed(r.bps)} bps ${r.where} requestId ${JSON.stringify(r.requestId)}: this ${r.value}, other ${r.otherValue}\n`,
      );
  }
  const failed = over > 0 || unreproducible > 0 || (o.strict === true && different.length > 0);
  return failed ? 1 : 0;
}
