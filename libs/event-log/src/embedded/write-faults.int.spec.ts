import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultyFiles } from '../../test/faulty-files';
import type { AppendEntry, LogEntry } from '../event-log';
import { LogError } from '../log-error';
import { EmbeddedLog } from './embedded-log';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'elog-faults-'));
  dirs.push(d);
  return d;
};

const batch = (from: number, n: number, snapshotEvery = 7): AppendEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `k${(from + i) % 9}`,
    value: JSON.stringify({ i: from + i, pad: 'x'.repeat(40 + ((from + i) % 13)) }),
    snapshot: (from + i) % snapshotEvery === 0,
  }));

async function all(log: EmbeddedLog): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let p = 0; p < (await log.partitions('books')); p++) out.push(...(await log.read('books', p, 0)));
  return out;
}

const ids = (entries: readonly LogEntry[]): number[] =>
  entries.map((e) => (JSON.parse(e.value) as { i: number }).i).sort((a, b) => a - b);

describe('EmbeddedLog on a full disk', () => {
  it('refuses with no_space, keeps only whole frames, names what got in, and resumes once space is freed', async () => {
    const dir = tmp();
    const files = new FaultyFiles(Number.MAX_SAFE_INTEGER);
    const problems: string[] = [];
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: 3 },
      files,
      onProblem: (m) => problems.push(m),
    });
    const acknowledged = new Set<number>();
    let next = 0;
    const write = async (n: number): Promise<void> => {
      const entries = batch(next, n);
      next += n;
      try {
        await log.append('books', entries);
        for (const e of entries) acknowledged.add((JSON.parse(e.value) as { i: number }).i);
      } catch (e) {
        expect(e).toBeInstanceOf(LogError);
        expect((e as LogError).code).toBe('no_space');
        for (const j of (e as LogError).appended)
          acknowledged.add((JSON.parse(entries[j]!.value) as { i: number }).i);
        throw e;
      }
    };
    await write(200);
    files.capacity = files['used'] + 1500; // room for a few frames, then a short write
    let refused = 0;
    for (let i = 0; i < 20; i++) await write(25).catch(() => refused++);
    expect(refused).toBeGreaterThan(15);
    expect(files.refusals).toBeGreaterThan(0);
    // What readers see is exactly what was acknowledged: whole frames, contiguous offsets.
    const during = await all(log);
    expect(ids(during)).toEqual([...acknowledged].sort((a, b) => a - b));
    for (let p = 0; p < 3; p++) {
      const part = during.filter((e) => e.partition === p);
      expect(part.map((e) => e.offset)).toEqual(part.map((_, i) => i));
    }
    files.free();
    await write(100);
    await log.close();
    // A fresh writer cuts nothing: no garbage was left behind.
    const again = new EmbeddedLog({ dataDir: dir, onProblem: (m) => problems.push(m) });
    await again.append('books', batch(next, 1));
    acknowledged.add(next);
    expect(again.repairedBytes('books')).toEqual([0, 0, 0]);
    expect(ids(await all(again))).toEqual([...acknowledged].sort((a, b) => a - b));
    expect(again.health().damagedEntries).toBe(0);
    expect(problems).toEqual([]);
    // Marks of entries that never made it were taken back: rebuilds still see every key.
    const hwm = await again.highWatermarks('books');
    const starts = await again.rebuildStarts('books', hwm);
    for (let p = 0; p < 3; p++) {
      const part = (await again.read('books', p, 0)).filter((e) => e.offset >= starts[p]!);
      const keys = new Set((await again.read('books', p, 0)).map((e) => e.key));
      expect(new Set(part.map((e) => e.key))).toEqual(keys);
    }
    await again.close();
  });

  it('a failed fdatasync refuses one append with io_error, then writing goes on', async () => {
    const files = new FaultyFiles(Number.MAX_SAFE_INTEGER);
    const log = new EmbeddedLog({
      dataDir: tmp(),
      partitions: { books: 1 },
      files,
      fsync: 'always',
      onProblem: () => undefined,
    });
    await log.append('books', batch(0, 5));
    files.failSyncs = true;
    const e = (await log.append('books', batch(5, 5)).catch((x: unknown) => x)) as LogError;
    expect(e.code).toBe('io_error');
    expect(e.appended).toEqual([]);
    files.failSyncs = false;
    await log.append('books', batch(10, 5));
    // Marks are synced before the entries they name: that sync failed, so nothing of the batch was written.
    expect(ids(await log.read('books', 0, 0))).toEqual([0, 1, 2, 3, 4, 10, 11, 12, 13, 14]);
    await log.close();
  });
});
