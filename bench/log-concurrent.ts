/**
 * Embedded append+fold as the service runs it: the ingestor's writer process appends while the
 * API's feed (another process) follows and folds, each on its own core. Throughput is records
 * over the time from the writer's first append to the feed having folded the last record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '@app/event-log';
import { createBookFeed } from '@app/live-feed';
import type { BenchRow } from './bench-row';
import { forkHeld } from './processes';

type ChildMessage = { type: 'ready' } | { type: 'done'; appendS: number };

const quiet = {
  log: () => undefined,
  warn: (m: string) => console.error(m),
  error: (m: string) => console.error(m),
};

export async function benchEmbeddedConcurrent(records: number, levels: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-conc-'));
  const child = forkHeld(
    'log writer',
    join(__dirname, 'log-writer-child.js'),
    [dir, String(records), String(levels), '5000'],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const messages: ChildMessage[] = [];
  let wake: (() => void) | null = null;
  child.on('message', (m: ChildMessage) => {
    messages.push(m);
    wake?.();
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const next = async (type: ChildMessage['type']): Promise<ChildMessage> => {
    for (;;) {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) return messages.splice(i, 1)[0]!;
      if (child.exitCode !== null)
        throw new Error(`writer child exited (${child.exitCode}) before '${type}'`);
      await Promise.race([new Promise<void>((r) => (wake = r)), exited]);
    }
  };
  const log = new EmbeddedLog({ dataDir: dir });
  try {
    await next('ready');
    const feed = createBookFeed({ log, logger: quiet, fromSnapshots: false });
    await feed.start();
    let folded: (() => void) | null = null;
    const allFolded = new Promise<void>((r) => (folded = r));
    let t1 = 0n;
    feed.onChange(() => {
      if (feed.stats.applied + feed.stats.skipped < records || t1 !== 0n) return;
      t1 = process.hrtime.bigint();
      folded?.();
    });
    const t0 = process.hrtime.bigint();
    child.send({ type: 'go' });
    const done = (await next('done')) as Extract<ChildMessage, { type: 'done' }>;
    await allFolded;
    await feed.stop();
    if (feed.stats.applied !== records)
      throw new Error(`concurrent fold applied ${feed.stats.applied} of ${records} records`);
    const totalS = Number(t1 - t0) / 1e9;
    return [
      {
        scenario: 'log',
        metric: `embedded writer process (${levels} lv)`,
        value: records / done.appendS,
        unit: 'records/s',
      },
      {
        scenario: 'log',
        metric: `embedded append+fold 2 procs (${levels} lv)`,
        value: records / totalS,
        unit: 'records/s',
      },
    ];
  } finally {
    child.kill();
    await exited;
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
