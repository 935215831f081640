/**
 * One catch-up of a JournalIndex, for bench/journal-index.ts: `node journal-index-child.js <root>
 * <dataDir> <indexDir>` opens the embedded log of `dataDir` read-only with the build of checkout
 * `root` (this one or the baseline), warms that build's code up as a long-running API has it (two
 * catch-ups over a small journal of its own: reads, hashing, sorting, a merge), measures the event
 * loop idle for 200 ms (the machine's own noise), then runs its JournalIndex.catchUp on `indexDir`
 * and prints one JSON line of figures. A process per catch-up: neither build's garbage lands in
 * the other's collections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import type { EventLog } from '@app/event-log';

interface Built {
  readonly EmbeddedLog: new (o: {
    dataDir: string;
    partitions: { quotes: number };
    readOnly?: boolean;
  }) => EventLog;
  readonly JournalIndex: new (log: EventLog, dir: string) => { catchUp(): Promise<number> };
}

/** What one catch-up cost: ms; `idleMaxMs` is the worst delay of the same loop doing nothing. */
export interface CatchUpFigures {
  readonly indexed: number;
  readonly wallMs: number;
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly idleMaxMs: number;
  /**
   * The worst delay of the same loop running slices of 3 ms of busy work with a turn between them
   * for as long as the catch-up took (at most 5 s): what a well-behaved background task sees on
   * this machine at this load.
   */
  readonly referenceMaxMs: number;
}

/** Worst event-loop delay (ms) while 3 ms slices of busy work run, a turn apart, for `ms`. */
async function reference(ms: number): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 3;
    while (performance.now() < slice);
    await new Promise((r) => setImmediate(r));
  }
  h.disable();
  return h.max / 1e6;
}

async function main(): Promise<void> {
  const [root, dataDir, indexDir] = process.argv.slice(2) as [string, string, string];
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { EmbeddedLog } = require(join(root, 'dist', 'libs', 'log', 'src', 'index.js')) as Built;
  const { JournalIndex } = require(join(root, 'dist', 'libs', 'audit', 'src', 'index.js')) as Built;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const scratch = mkdtempSync(join(tmpdir(), 'bench-journal-index-warm-'));
  try {
    const warm = new EmbeddedLog({ dataDir: join(scratch, 'log'), partitions: { quotes: 1 } });
    const index = new JournalIndex(warm, join(scratch, 'index'));
    const value = JSON.stringify({ v: 1, kind: 'rest', pad: 'x'.repeat(300) });
    for (let pass = 0; pass < 2; pass++) {
      for (let n = 0; n < 20_000; n += 5000)
        await warm.append(
          'quotes',
          Array.from({ length: 5000 }, (_, k) => ({ key: `warm-${pass}-${n + k}`, value })),
        );
      await index.catchUp();
    }
    await warm.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const log = new EmbeddedLog({ dataDir, partitions: { quotes: 1 }, readOnly: true });
  // Opened as the API's log is long before its indexer's pass: its files are found and read once.
  await log.read('quotes', 0, 0, 1);
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((r) => setTimeout(r, 200));
  idle.disable();
  const h = monitorEventLoopDelay({ resolution: 1 });
  const t0 = performance.now();
  h.enable();
  const indexed = await new JournalIndex(log, indexDir).catchUp();
  h.disable();
  const wallMs = performance.now() - t0;
  const figures: CatchUpFigures = {
    indexed,
    wallMs,
    maxMs: h.max / 1e6,
    p99Ms: h.percentile(99) / 1e6,
    idleMaxMs: idle.max / 1e6,
    referenceMaxMs: await reference(Math.min(wallMs, 5_000)),
  };
  await log.close();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

void main();
