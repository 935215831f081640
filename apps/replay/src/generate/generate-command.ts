import { join, resolve } from 'node:path';
import { intFlag, numFlag, parseArgs, requiredFlag } from '../cli/args';
import { generateMarket } from '@app/synth';
import { writeJsonl } from '@app/synth';

/** Start of the committed replay-data (a fixed instant so the bytes never depend on when they were made). */
export const REPLAY_DATA_START = 1_786_300_000_000;

/** `generate --out DIR [--seed N] [--duration-s S] [--rate-scale X] [--venues N] [--start EPOCH_MS]` */
export function generateCommand(argv: readonly string[], cwd: string, out: (line: string) => void): number {
  const args = parseArgs(argv, ['out', 'seed', 'duration-s', 'rate-scale', 'venues', 'start']);
  const dir = resolve(cwd, requiredFlag(args, 'out'));
  const venues = intFlag(args, 'venues', 60, 1, 100);
  const spec = {
    seed: intFlag(args, 'seed', 1, 0, 2 ** 32 - 1),
    startAt: intFlag(args, 'start', REPLAY_DATA_START, 0, 8_640_000_000_000_000),
    durationMs: intFlag(args, 'duration-s', 120, 1, 86_400) * 1000,
    rateScale: numFlag(args, 'rate-scale', 1, 0.01, 100),
    venues,
  };
  const file = join(dir, `synthetic-${venues}-venues.jsonl`);
  const t0 = performance.now();
  const { records, bytes } = writeJsonl(file, generateMarket(spec));
  out(
    `wrote ${records} records (${(bytes / 1e6).toFixed(2)} MB) to ${file} in ${Math.round(performance.now() - t0)} ms; seed ${spec.seed}, synthetic data`,
  );
  return 0;
}
