import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { EventRecord } from '@app/events';
import { generateMarket, writeJsonl } from '@app/synth';
import { decimal, integer, MAX_EPOCH_MS } from '../cli/args';
import type { CliContext } from '../cli/context';

/** Start of the committed replay-data (a fixed instant so the bytes never depend on when they were made). */
export const REPLAY_DATA_START = 1_786_300_000_000;

interface GenerateOptions {
  readonly out: string;
  readonly seed: number;
  readonly durationS: number;
  readonly rateScale: number;
  readonly venues: number;
  readonly start: number;
}

const HELP = `
Writes <out>/synthetic-<venues>-venues.jsonl: a seeded, synthetic market (made-up venues
sim00.., correlated random-walk prices, gaps, disconnects). The same flags always give the same
bytes. It is not real data. docs/replay.md describes the model.

Examples:
  route-service replay generate --out replay-data --seed 1            # the committed demo data
  route-service replay generate --out /tmp/m --seed 7 --duration-s 600 --rate-scale 10`;

/** `generate --out DIR ...`: the synthetic market data of the demo. */
export function registerGenerate(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const opt = (flags: string, what: string, parse: (raw: string) => number, fallback: number): Option =>
    new Option(flags, what).argParser(parse).default(fallback);
  program
    .command('generate')
    .summary('write a seeded synthetic market recording (the demo data)')
    .description('Generate synthetic venue traffic as events.md JSON Lines.')
    .requiredOption('--out <dir>', 'output directory (created if missing)')
    .addOption(opt('--seed <n>', 'PRNG seed', integer(0, 2 ** 32 - 1), 1))
    .addOption(opt('--duration-s <s>', 'seconds of market data', integer(1, 86_400), 120))
    .addOption(
      opt('--rate-scale <x>', 'update rate multiplier (10 = realistic rates)', decimal(0.01, 100), 1),
    )
    .addOption(opt('--venues <n>', 'number of venues', integer(1, 100), 60))
    .addOption(
      opt('--start <ms>', 'epoch ms of the first record', integer(0, MAX_EPOCH_MS), REPLAY_DATA_START),
    )
    .addHelpText('after', HELP)
    .action((o: GenerateOptions) => done(generate(o, ctx)));
}

function generate(o: GenerateOptions, ctx: CliContext): number {
  const dir = resolve(ctx.cwd, o.out);
  const spec = {
    seed: o.seed,
    startAt: o.start,
    durationMs: o.durationS * 1000,
    rateScale: o.rateScale,
    venues: o.venues,
  };
  const file = join(dir, `synthetic-${o.venues}-venues.jsonl`);
  const t0 = performance.now();
  // Progress in seconds of market time written (the record count is not known in advance).
  const bar = ctx.progress('generate', o.durationS, 'market seconds');
  function* counted(records: Iterable<EventRecord>): Iterable<EventRecord> {
    let n = 0;
    for (const r of records) {
      if (++n % 2048 === 0) bar.update(Math.floor((r.receivedAt - o.start) / 1000), `${n} records`);
      yield r;
    }
  }
  const { records, bytes } = writeJsonl(file, counted(generateMarket(spec)));
  bar.finish();
  ctx.err(
    `wrote ${records} records (${(bytes / 1e6).toFixed(2)} MB) to ${file} in ${Math.round(performance.now() - t0)} ms; seed ${spec.seed}, synthetic data`,
  );
  return 0;
}
