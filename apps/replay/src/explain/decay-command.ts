import { UsageError } from '@app/config';
import { Command, Option } from 'commander';
import { configOption } from '@app/config';
import { decaySummary, journalInRange, quoteDecay, replayInput, type QuoteDecay } from '@app/audit';
import { solve } from '@app/routing';
import { decimal, instant } from '../cli/args';
import type { CliContext } from '../cli/context';
import { openReadLog } from '../cli/open-log';

interface DecayOptions {
  readonly from: number;
  readonly to: number;
  readonly dataDir?: string;
  readonly toleranceBps: number;
  readonly json?: boolean;
}

const HELP = `
Every REST quote and stream frame journalled with calculatedAt in [--from, --to] is replayed and
its legs (venue and size) re-priced against the books the log holds 1 s, 5 s and 30 s later. The
quotes are grouped by pair and size (from, to, pinned side and amount); per group: the mean
difference in bps at each horizon, the share still holding (no more than --tolerance-bps worse
than quoted), and the half-life: the time until half of them no longer hold.

stdout: one line per group (or with --json one JSON text per group). Exit status: 0; 3 nothing
journalled in the range; 2 usage.

Examples:
  route-service replay decay --from 2026-08-10T12:00:00Z --to 2026-08-10T13:00:00Z
  route-service replay decay --from 1786300000000 --to 1786300060000 --tolerance-bps 2 --json`;

/** `decay --from T --to T`: the half-life of journalled quotes per pair and size. */
export function registerDecay(program: Command, ctx: CliContext, done: (code: number) => void): void {
  program
    .command('decay')
    .summary('how fast journalled quotes decay: re-priced 1 s, 5 s, 30 s later, half-life per pair and size')
    .description('Re-price the legs of journalled quotes later in the log; summarise per pair and size.')
    .addOption(new Option('--from <time>', 'first calculatedAt').argParser(instant).makeOptionMandatory())
    .addOption(new Option('--to <time>', 'last calculatedAt').argParser(instant).makeOptionMandatory())
    .addOption(configOption('replay', 'data-dir'))
    .addOption(
      new Option('--tolerance-bps <n>', 'a quote holds while re-priced at most this much worse')
        .argParser(decimal(0, 10_000))
        .default(1),
    )
    .option('--json', 'one JSON text per group')
    .addHelpText('after', HELP)
    .action(async (o: DecayOptions) => done(await decay(o, ctx)));
}

async function decay(o: DecayOptions, ctx: CliContext): Promise<number> {
  if (o.to < o.from) throw new UsageError(`--to (${o.to}) must not be before --from (${o.from})`);
  const log = openReadLog(o.dataDir, ctx);
  try {
    const groups = new Map<string, QuoteDecay[]>();
    let seen = 0;
    for await (const occ of journalInRange(log, o.from, o.to)) {
      seen++;
      if (!occ.ok) continue;
      const r = occ.record.request;
      const { input } = await replayInput(log, occ.record);
      const key = `${r.from}->${r.to} exact-${r.exactSide} ${r.amount}`;
      const list = groups.get(key) ?? [];
      list.push(await quoteDecay(log, occ.record, solve(input)));
      groups.set(key, list);
    }
    if (seen === 0) {
      ctx.err('decay: no journalled quote in the range');
      return 3;
    }
    for (const key of [...groups.keys()].sort()) {
      const s = decaySummary(groups.get(key)!, o.toleranceBps);
      if (o.json === true) {
        ctx.out(`${JSON.stringify({ group: key, ...s })}\n`);
        continue;
      }
      const at = s.horizons
        .map((h) =>
          h.meanBps === null
            ? `+${h.afterMs / 1000} s n/a`
            : `+${h.afterMs / 1000} s ${h.meanBps.toFixed(2)} bps (${(h.holding! * 100).toFixed(0)}% hold, ${h.priced})`,
        )
        .join('; ');
      const half =
        s.halfLifeMs === null
          ? 'half-life > last horizon'
          : `half-life ${(s.halfLifeMs / 1000).toFixed(1)} s`;
      ctx.out(`${key}: ${s.quotes} quotes; ${at}; ${half}\n`);
    }
    return 0;
  } finally {
    await log.close();
  }
}
