import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle, runChild } from '../../test/child-process';
import { EmbeddedLog } from './embedded-log';

const writerJs = bundle(join(__dirname, '..', '..', 'test', 'writer-child.ts'));
const followerJs = bundle(join(__dirname, '..', '..', 'test', 'follower-child.ts'));
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'elog-int-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Per key, the counters must run 0, 1, 2, ... with no gap, repeat or garbage. */
function checkContiguous(values: readonly string[]): number {
  const next = new Map<string, number>();
  for (const v of values) {
    const { k, n } = JSON.parse(v) as { k: string; n: number };
    expect(n).toBe(next.get(k) ?? 0);
    next.set(k, n + 1);
  }
  return values.length;
}

describe('EmbeddedLog across processes', () => {
  it('reopens cleanly after a writer is killed with SIGKILL mid-append', async () => {
    const dir = tmp();
    const writer = runChild(writerJs, [dir, '0', '500']);
    await writer.waitFor(/^20000$/m);
    writer.proc.kill('SIGKILL');
    await writer.exited;
    // The dead writer's lock is taken over; any torn tail is cut; every surviving entry is whole.
    const log = new EmbeddedLog({ dataDir: dir });
    const hwm = await log.highWatermarks('books');
    await log.append('books', [{ key: 'after', value: '{"k":"after","n":0}' }]);
    const values: string[] = [];
    for (let p = 0; p < 3; p++) {
      const got = await log.read('books', p, 0);
      expect(got.map((e) => e.offset)).toEqual(got.map((_, i) => i));
      values.push(...got.map((e) => e.value));
    }
    expect(values.length).toBe(hwm.reduce((a, b) => a + b, 0) + 1);
    expect(values.length).toBeGreaterThanOrEqual(20_001);
    checkContiguous(values);
    await log.close();
  });

  it('a writer process and a follower process see the same records in the same order', async () => {
    const dir = tmp();
    const count = 3000;
    // Create the topic with 3 partitions before the follower opens it (it would default to 8).
    const creator = new EmbeddedLog({ dataDir: dir, partitions: { books: 3 } });
    expect(await creator.partitions('books')).toBe(3);
    await creator.close();
    const follower = runChild(followerJs, [dir, String(count)]);
    await follower.waitFor('ready');
    const writer = runChild(writerJs, [dir, String(count), '50', '2']);
    await writer.waitFor(`done ${count}`);
    await follower.waitFor('\nend\n');
    const lines = follower.output().split('\n').slice(1, -2);
    expect(lines).toHaveLength(count);
    const log = new EmbeddedLog({ dataDir: dir });
    const expected: string[] = [];
    for (let p = 0; p < 3; p++)
      for (const e of await log.read('books', p, 0)) expected.push(`${e.partition} ${e.offset} ${e.value}`);
    // Same per-partition order (the follower interleaves partitions as batches arrive).
    for (let p = 0; p < 3; p++)
      expect(lines.filter((l) => l.startsWith(`${p} `))).toEqual(
        expected.filter((l) => l.startsWith(`${p} `)),
      );
    checkContiguous(lines.map((l) => l.split(' ').slice(2).join(' ')));
    await log.close();
  });
});
