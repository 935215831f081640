import { errorMessage } from '@app/retry';
import { UsageError } from '@app/config';
import { Command, Option } from 'commander';
import { configOption } from '@app/config';
import { formatDiff, journalInRange, replayQuote, type JournalOccurrence } from '@app/audit';
import type { EventLog } from '@app/event-log';
import { instant, integer } from '../cli/args';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';
import { verifyLogs } from './verify-log';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

interface AuditOptions {
  readonly from: number;
  readonly to: number;
  readonly dataDir?: string;
  readonly showDiff: number;
  readonly verifyLog?: boolean;
  readonly keys: string[];
}

const HELP = `
Every quote served whose calculatedAt lies in [--from, --to] is re-solved from the log exactly as
'replay quote' does: REST answers and stream frames (a frame is timed by its tick). The whole
quotes topic is read once; the work is one rebuild and solve per quote (about 20-30 ms each).

Each quote is one of:
  identical          the replayed bytes hash to the recorded SHA-256
  DIFFERENT          they do not (a changed record, a changed solver, a changed log)
  NOT REPRODUCIBLE   the record is invalid, or a frame's tick is missing, or the replay failed
Each difference and each unreproducible quote is named on stderr with its position; a summary line
ends the run (and is the only line on stdout, for scripts).
--verify-log first checks each origin named in --keys (a /keys file or URL, repeatable): its
transparency log read from the tlog topic against every checkpoint it signed (leaves changed,
reordered or removed under a signed root), and every leaf under its latest checkpoint against the
journal (a record missing, or altered); each fault is a 'LOG <origin>:' line, and any makes the
exit status 1.
Exit status: 0 every quote identical; 1 any DIFFERENT or NOT REPRODUCIBLE; 3 nothing journalled in
the range; 2 usage.

Examples (times are epoch milliseconds, or ISO 8601 with a zone):
  route-service replay audit --from 2026-08-10T12:00:00Z --to 2026-08-10T13:00:00Z
  route-service replay audit --from 1786300000000 --to 1786300060000 --data-dir /srv/route/.data
  route-service replay audit --from 2026-08-10 --to 2026-08-11 --verify-log --keys keys.json`;

/** `audit --from T --to T`: replay every journalled quote in a time range. */
export function registerAudit(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('audit')
    .summary('re-solve every journalled quote in a time range; exit 1 if any differs')
    .description('Replay every quote journalled between --from and --to and report which differ.')
    .addOption(
      new Option('--from <time>', 'first calculatedAt to include').argParser(instant).makeOptionMandatory(),
    )
    .addOption(
      new Option('--to <time>', 'last calculatedAt to include').argParser(instant).makeOptionMandatory(),
    )
    .addOption(configOption('replay', 'data-dir'))
    .addOption(
      new Option('--show-diff <n>', 'diff lines shown per differing quote')
        .argParser(integer(0, 10_000))
        .default(10),
    )
    .option('--verify-log', "check each origin's transparency log against its checkpoints and the journal")
    .option(
      '--keys <file|url>',
      'with --verify-log: a GET /keys document; repeat for several origins',
      collect,
      [],
    )
    .addHelpText('after', HELP)
    .action(async (o: AuditOptions) => done(await audit(o, ctx)));
}

interface Tally {
  identical: number;
  different: number;
  unreproducible: number;
}

async function audit(o: AuditOptions, ctx: CliContext): Promise<number> {
  if (o.to < o.from) throw new UsageError(`--to (${o.to}) must not be before --from (${o.from})`);
  if ((o.verifyLog === true) !== o.keys.length > 0)
    throw new UsageError(
      '--verify-log and --keys go together: the keys name the origins and open their checkpoints',
    );
  const log = openReadLog(o.dataDir, ctx);
  const t0 = performance.now();
  const tally: Tally = { identical: 0, different: 0, unreproducible: 0 };
  try {
    const faults = o.verifyLog === true ? await verifyLogs(log, o.keys, ctx) : 0;
    // The range's size is known only after the scan, so the bar counts journal entries read first.
    const items: JournalOccurrence[] = [];
    for await (const occ of journalInRange(log, o.from, o.to)) items.push(occ);
    const bar = ctx.progress('audit', items.length, 'quotes');
    for (const [i, occ] of items.entries()) {
      await auditOne(log, occ, o, ctx, tally);
      bar.update(i + 1, `different ${tally.different}, not reproducible ${tally.unreproducible}`);
    }
    bar.finish();
    const total = items.length;
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    const range = `${new Date(o.from).toISOString()} .. ${new Date(o.to).toISOString()}`;
    const logLine = o.verifyLog === true ? `; transparency logs: ${faults} fault(s)` : '';
    if (total === 0) {
      ctx.err(`audit: no journalled quote calculated in ${range}${logLine}`);
      return faults > 0 ? 1 : 3;
    }
    const summary = `audit ${range}: ${total} quotes; identical ${tally.identical}, different ${tally.different}, not reproducible ${tally.unreproducible}${logLine} (${secs} s)`;
    ctx.out(`${summary}\n`);
    return tally.different + tally.unreproducible + faults > 0 ? 1 : 0;
  } finally {
    await log.close();
  }
}

async function auditOne(
  log: EventLog,
  occ: JournalOccurrence,
  o: AuditOptions,
  ctx: CliContext,
  tally: Tally,
): Promise<void> {
  const where = `${occ.topic}/${occ.partition}@${occ.offset}`;
  if (!occ.ok) {
    tally.unreproducible++;
    ctx.err(`NOT REPRODUCIBLE ${where}: ${occ.problem}`);
    return;
  }
  const id = JSON.stringify(occ.record.requestId);
  try {
    const r = await replayQuote(log, occ.record);
    if (r.identical) {
      tally.identical++;
      return;
    }
    tally.different++;
    ctx.err(
      `DIFFERENT ${where} requestId ${id}: recorded sha256 ${occ.record.responseSha256}, replayed ${r.sha256}`,
    );
    for (const note of r.notes) ctx.err(`  note: ${note}`);
    for (const line of formatDiff(r.diff, o.showDiff)) ctx.err(`  ${line}`);
  } catch (e) {
    tally.unreproducible++;
    ctx.err(`NOT REPRODUCIBLE ${where} requestId ${id}: ${errorMessage(e)}`);
  }
}
