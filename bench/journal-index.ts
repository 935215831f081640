/**
 * `npm run bench -- journal-index [--baseline=<dir>]`: the API's requestId indexer (JournalIndex)
 * keeping up with a journal grown to 1M entries on the embedded log. The indexer runs on the event
 * loop that serves requests; measured while it runs: the worst event-loop delay
 * (perf_hooks.monitorEventLoopDelay: what a request arriving then waits before it is read), the
 * p99 of the delay samples, and the wall time. Two phases on one partition (its runs double up to
 * 1M entries): `growing`, the journal grown 50k entries at a time with a catch-up after each (runs
 * written and merged like a binary counter, as the indexer's pass every second does), and
 * `rebuild`, the whole 1M journal indexed from no index (a lost index directory). Each catch-up
 * runs in a process of its own, its code warmed up first as a long-running API's is
 * (bench/journal-index-child.ts), on the log this process writes; with
 * --baseline=<dir> that built checkout's indexer catches up on the same journal into its own
 * directory, interleaved with this one (who goes first alternates). The machine's own noise is
 * reported too: the worst delay of the same processes idle for 200 ms, and while they run 3 ms
 * slices of busy work a turn apart for as long as the catch-up took (at most 5 s).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EmbeddedLog } from '@app/event-log';
import { quantile, type BenchRow } from './bench-row';
import { outputOf } from './child-io';
import type { CatchUpFigures } from './journal-index-child';
import { prng } from './market-gen';

const TOTAL = 1_000_000;
const STEP = 50_000;
const ROOT = resolve(__dirname, '..', '..');
type Phase = 'growing' | 'rebuild';

interface Variant {
  readonly name: string;
  /** The checkout whose build indexes. */
  readonly root: string;
  readonly figures: Record<Phase, CatchUpFigures[]>;
}

async function catchUp(v: Variant, phase: Phase, dataDir: string, indexDir: string): Promise<void> {
  const out = await outputOf(`journal index (${v.name})`, process.execPath, [
    '--max-semi-space-size=64',
    join(__dirname, 'journal-index-child.js'),
    v.root,
    dataDir,
    indexDir,
  ]);
  v.figures[phase].push(JSON.parse(out.trim().split('\n').at(-1) ?? '') as CatchUpFigures);
}

export async function benchJournalIndex(baseline: string | null): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'bench-journal-index-'));
  const dataDir = join(root, 'log');
  const log = new EmbeddedLog({ dataDir, partitions: { quotes: 1 } });
  const variants: Variant[] = [{ name: 'this', root: ROOT, figures: { growing: [], rebuild: [] } }];
  if (baseline !== null)
    variants.push({ name: 'baseline', root: resolve(baseline), figures: { growing: [], rebuild: [] } });
  try {
    const rand = prng(7);
    // A journal record's size (a few hundred bytes: hash and length, not the response).
    const value = JSON.stringify({ v: 1, kind: 'rest', pad: 'x'.repeat(300) });
    for (let total = 0, step = 0; total < TOTAL; step++) {
      for (let n = 0; n < STEP; n += 5000) {
        const batch = Array.from({ length: 5000 }, (_, k) => ({
          key: `req-${(total + n + k).toString(36)}-${Math.floor(rand() * 1e12).toString(36)}`,
          value,
        }));
        await log.append('quotes', batch);
      }
      total += STEP;
      for (let i = 0; i < variants.length; i++) {
        const v = variants[(i + step) % variants.length]!;
        await catchUp(v, 'growing', dataDir, join(root, `growing-${v.name}`));
      }
    }
    for (const v of baseline === null ? variants : [...variants].reverse())
      await catchUp(v, 'rebuild', dataDir, join(root, `rebuild-${v.name}`));
  } finally {
    await log.close();
    rmSync(root, { recursive: true, force: true });
  }
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string): void => {
    rows.push({ scenario: 'journal-index', metric, value, unit });
  };
  for (const v of variants)
    for (const phase of ['growing', 'rebuild'] as const) {
      const f = v.figures[phase];
      const what = `${v.name}: ${phase === 'growing' ? `1M journal grown ${STEP / 1000}k at a time (${f.length} catch-ups)` : '1M journal indexed from scratch'}`;
      row(`${what}: worst event-loop delay`, Math.max(...f.map((x) => x.maxMs)), 'ms');
      if (phase === 'growing')
        row(
          `${what}: median catch-up's worst delay`,
          quantile(
            f.map((x) => x.maxMs),
            0.5,
          ),
          'ms',
        );
      row(`${what}: event-loop delay p99 (worst catch-up)`, Math.max(...f.map((x) => x.p99Ms)), 'ms');
      row(
        `${what}: catch-up wall time`,
        f.reduce((s, x) => s + x.wallMs, 0),
        'ms',
      );
      row(`${what}: idle loop's worst delay (machine noise)`, Math.max(...f.map((x) => x.idleMaxMs)), 'ms');
      row(
        `${what}: worst delay under 3 ms busy slices as long (machine noise)`,
        Math.max(...f.map((x) => x.referenceMaxMs)),
        'ms',
      );
    }
  return rows;
}
