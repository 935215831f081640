/**
 * Issue 15, `npm run bench -- store`: the hand-written embedded log against LMDB (lmdb-js, a
 * well-kept embedded store with prebuilt binaries) behind the same partition/offset layout, on the
 * same records: append+fold rate, and what each does with damage (a flipped byte in the middle
 * of the data, and a torn tail). The LMDB rows are measured in a child process, since a damaged
 * LMDB file may take its reader down.
 */
import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BookCache } from '@app/books';
import { parseRecordLine } from '@app/events';
import { EmbeddedLog, type AppendEntry } from '@app/event-log';
import type { BenchRow } from './bench-row';
import { bookRecords, toEntries } from '@app/synth';
import { APPEND_FOLD_SPEC } from './log-specs';
import { flipMiddle, type StoreResult } from './log-store-child';
import { forkHeld } from './processes';

const PARTITIONS = 8;
const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

/** Append then fold `records` through the embedded log; then damage it and read it again. */
async function embedded(entries: readonly AppendEntry[]): Promise<StoreResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  try {
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: PARTITIONS },
      onProblem: () => undefined,
    });
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < entries.length; i += 5000) log.appendSync('books', entries.slice(i, i + 5000));
    const appendS = seconds(t0);
    const t1 = process.hrtime.bigint();
    const cache = new BookCache();
    let read = 0;
    for (let p = 0; p < PARTITIONS; p++)
      for (const e of await log.read('books', p, 0)) {
        const r = parseRecordLine(e.value);
        if (r.ok) cache.apply(r.record);
        read++;
      }
    const foldS = seconds(t1);
    await log.close();
    // A flipped byte in the middle of partition 0's first segment, and a torn tail in partition 1.
    const seg = (p: number): string => join(dir, 'books', String(p), '00000000000000000000.log');
    flipMiddle(seg(0));
    truncateSync(seg(1), statSync(seg(1)).size - 7);
    const t2 = process.hrtime.bigint();
    const after = new EmbeddedLog({ dataDir: dir, onProblem: () => undefined });
    let readable = 0;
    for (let p = 0; p < PARTITIONS; p++) readable += (await after.read('books', p, 0)).length;
    const health = after.health();
    await after.append('books', [{ key: 'after', value: '{}' }]);
    const reopenS = seconds(t2);
    const cut = after.repairedBytes('books')[1];
    await after.close();
    return {
      appendS,
      foldS,
      records: read,
      damaged: `${readable} of ${read} readable; ${health.damagedEntries} named as damaged; torn tail cut (${cut} B) by the writer`,
      reopenMs: reopenS * 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function lmdb(records: number, levels: number): Promise<StoreResult> {
  return new Promise((resolve, reject) => {
    const child = forkHeld(
      'lmdb child',
      join(__dirname, 'log-store-child.js'),
      [String(records), String(levels), String(PARTITIONS)],
      {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      },
    );
    let result: StoreResult | null = null;
    child.on('message', (m) => (result = m as StoreResult));
    child.on('exit', (code, signal) => {
      if (result !== null) resolve(result);
      else reject(new Error(`lmdb bench child exited ${code ?? signal}`));
    });
  });
}

/** Rows for bench/main.ts. */
export async function benchStore(records = 200_000, levels = 10): Promise<BenchRow[]> {
  const entries = toEntries([...bookRecords({ ...APPEND_FOLD_SPEC, bookRecords: records, levels })]);
  const rows: BenchRow[] = [];
  for (const [name, run] of [
    ['embedded', () => embedded(entries)],
    ['lmdb', () => lmdb(records, levels)],
  ] as const) {
    const r = await run();
    const label = `${name} (${levels} lv)`;
    rows.push(
      { scenario: 'store', metric: `${label} append`, value: r.records / r.appendS, unit: 'records/s' },
      { scenario: 'store', metric: `${label} fold`, value: r.records / r.foldS, unit: 'records/s' },
      {
        scenario: 'store',
        metric: `${label} append then fold`,
        value: r.records / (r.appendS + r.foldS),
        unit: 'records/s',
      },
      {
        scenario: 'store',
        metric: `${label} damaged: open, read all`,
        value: r.reopenMs,
        unit: `ms; ${r.damaged}`,
      },
    );
  }
  return rows;
}
