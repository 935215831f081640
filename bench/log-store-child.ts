/**
 * Child of bench/log-store.ts: the same append+fold on LMDB (lmdb-js), keys [partition, offset],
 * one write transaction per 5,000 entries, then the same damage; reports over IPC. A crash while
 * reading the damaged file is itself the result (the parent reports the exit).
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { BookCache } from '@app/books';
import { parseRecordLine } from '@app/events';
import { partitionFor } from '@app/event-log';
import { bookRecords, toEntries } from '@app/synth';
import { APPEND_FOLD_SPEC } from './log-specs';

export interface StoreResult {
  readonly appendS: number;
  readonly foldS: number;
  readonly records: number;
  readonly damaged: string;
  readonly reopenMs: number;
}

/** Flip one byte in the middle of a file. */
export function flipMiddle(file: string): void {
  const at = Math.floor(statSync(file).size / 2);
  const fd = openSync(file, 'r+');
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, at);
  b[0] = b[0]! ^ 0xff;
  writeSync(fd, b, 0, 1, at);
  closeSync(fd);
}

const seconds = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

async function main(): Promise<void> {
  const [records, levels, partitions] = process.argv.slice(2).map(Number) as [number, number, number];
  const entries = toEntries([...bookRecords({ ...APPEND_FOLD_SPEC, bookRecords: records, levels })]);
  const dir = mkdtempSync(join(tmpdir(), 'bench-lmdb-'));
  try {
    // noSync: the OS writes back, like the embedded log's 'interval' between its syncs.
    const db = open<string, [number, number]>({
      path: dir,
      encoding: 'string',
      noSync: true,
      mapSize: 4 * 2 ** 30,
    });
    const next = new Array<number>(partitions).fill(0);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < entries.length; i += 5000) {
      const batch = entries.slice(i, i + 5000);
      db.transactionSync(() => {
        for (const e of batch) {
          const p = partitionFor(e.key, partitions);
          db.putSync([p, next[p]!++], `${e.key}\n${e.value}`);
        }
      });
    }
    const appendS = seconds(t0);
    const t1 = process.hrtime.bigint();
    const cache = new BookCache();
    let read = 0;
    for (let p = 0; p < partitions; p++)
      for (const { value } of db.getRange({ start: [p, 0], end: [p + 1, 0] })) {
        const r = parseRecordLine(value.slice(value.indexOf('\n') + 1));
        if (r.ok) cache.apply(r.record);
        read++;
      }
    const foldS = seconds(t1);
    await db.close();
    flipMiddle(join(dir, 'data.mdb'));
    const t2 = process.hrtime.bigint();
    let damaged: string;
    try {
      const again = open<string, [number, number]>({
        path: dir,
        encoding: 'string',
        noSync: true,
        mapSize: 4 * 2 ** 30,
      });
      let readable = 0;
      for (let p = 0; p < partitions; p++)
        for (const _ of again.getRange({ start: [p, 0], end: [p + 1, 0] })) readable++;
      damaged = `${readable} of ${read} readable; damage not detected (no checksums), nothing named`;
      await again.close();
    } catch (e) {
      damaged = `unreadable: ${e instanceof Error ? e.message.slice(0, 80) : String(e)}`;
    }
    process.send!({ appendS, foldS, records: read, damaged, reopenMs: seconds(t2) * 1000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
