import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../event-log';
import { partitionFor } from '../partitioner';
import { EmbeddedLog } from './embedded-log';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'elog-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const entries = (n: number, from = 0, keys = 5): { key: string; value: string }[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `k${(from + i) % keys}`,
    value: `{"i":${from + i},"s":"é\\n"}`,
  }));

async function readAll(log: EmbeddedLog, topic: 'books'): Promise<LogEntry[]> {
  const n = await log.partitions(topic);
  const out: LogEntry[] = [];
  for (let p = 0; p < n; p++) out.push(...(await log.read(topic, p, 0)));
  return out;
}

describe('EmbeddedLog', () => {
  it('appends by key partition and reads back in order with offsets and high-water marks', async () => {
    const log = new EmbeddedLog({ dataDir: tmp(), partitions: { books: 3 } });
    await log.append('books', entries(50));
    await log.append('books', entries(50, 50));
    const all = await readAll(log, 'books');
    expect(all).toHaveLength(100);
    for (const e of all) expect(e.partition).toBe(partitionFor(e.key, 3));
    const hwm = await log.highWatermarks('books');
    expect(hwm.reduce((a, b) => a + b, 0)).toBe(100);
    for (let p = 0; p < 3; p++) {
      const part = all.filter((e) => e.partition === p);
      expect(part.map((e) => e.offset)).toEqual(part.map((_, i) => i));
      // per key, the append order is kept
      const is = part.map((e) => (JSON.parse(e.value) as { i: number }).i);
      expect(is).toEqual([...is].sort((a, b) => a - b));
    }
    expect((await log.read('books', 0, 2, 3)).map((e) => e.offset)).toEqual([2, 3, 4]);
    await log.close();
  });

  it('rolls segments and reads across them from any offset', async () => {
    const dir = tmp();
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: 1 },
      segmentBytes: 2000,
      indexIntervalBytes: 200,
    });
    for (let b = 0; b < 40; b++) await log.append('books', entries(5, b * 5));
    expect(readdirSync(join(dir, 'books', '0')).filter((f) => f.endsWith('.log')).length).toBeGreaterThan(3);
    for (const from of [0, 7, 63, 199]) {
      const got = await log.read('books', 0, from);
      expect(got.map((e) => e.offset)).toEqual(Array.from({ length: 200 - from }, (_, i) => from + i));
    }
    expect(await log.read('books', 0, 200)).toEqual([]);
    await log.close();
    const again = new EmbeddedLog({ dataDir: dir });
    expect(await again.highWatermarks('books')).toEqual([200]);
    await again.close();
  });

  it('cuts a torn tail on reopen and never returns it; later appends continue the offsets', async () => {
    const dir = tmp();
    const log = new EmbeddedLog({ dataDir: dir, partitions: { books: 1 } });
    await log.append('books', entries(10));
    await log.close();
    const seg = join(dir, 'books', '0', '00000000000000000000.log');
    const size = statSync(seg).size;
    truncateSync(seg, size - 7); // the last frame is now torn
    appendFileSync(seg, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]));
    const reader = new EmbeddedLog({ dataDir: dir });
    expect((await reader.read('books', 0, 0)).length).toBe(9);
    const writer = new EmbeddedLog({ dataDir: dir });
    await writer.append('books', entries(2, 100));
    expect(writer.repairedBytes('books')[0]).toBeGreaterThan(0);
    const got = await reader.read('books', 0, 0);
    expect(got.map((e) => e.offset)).toEqual(Array.from({ length: 11 }, (_, i) => i));
    expect(got[9]!.value).toBe('{"i":100,"s":"é\\n"}');
    await writer.close();
    await reader.close();
  });

  it("'interval' syncs in the background while appends and segment rolls go on", async () => {
    const dir = tmp();
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: 2 },
      fsync: 'interval',
      fsyncIntervalMs: 1,
      segmentBytes: 3000,
    });
    // Appends between timer ticks, segments rolling while their syncs may still be running.
    for (let b = 0; b < 60; b++) {
      await log.append('books', entries(10, b * 10));
      if (b % 3 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    await log.close();
    const again = new EmbeddedLog({ dataDir: dir });
    expect((await again.highWatermarks('books')).reduce((a, b) => a + b, 0)).toBe(600);
    await again.append('books', entries(1, 600));
    expect(again.repairedBytes('books')).toEqual([0, 0]);
    const all = await readAll(again, 'books');
    expect(all.map((e) => (JSON.parse(e.value) as { i: number }).i).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 601 }, (_, i) => i),
    );
    await again.close();
  });

  it('follows the tail across partitions and stops on abort', async () => {
    const dir = tmp();
    const writer = new EmbeddedLog({ dataDir: dir, partitions: { books: 2 } });
    const reader = new EmbeddedLog({ dataDir: dir });
    await writer.append('books', entries(4));
    const ac = new AbortController();
    const seen: LogEntry[] = [];
    const done = (async () => {
      for await (const batch of reader.follow(
        [0, 1].map((partition) => ({ topic: 'books' as const, partition, offset: 0 })),
        { signal: ac.signal },
      )) {
        seen.push(...batch);
        if (seen.length >= 24) ac.abort();
      }
    })();
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await writer.append('books', entries(5, 4 + i * 5));
    }
    await done;
    expect(seen).toHaveLength(24);
    const is = seen.map((e) => (JSON.parse(e.value) as { i: number }).i).sort((a, b) => a - b);
    expect(is).toEqual(Array.from({ length: 24 }, (_, i) => i));
    await writer.close();
    await reader.close();
  });

  it('allows one writer per topic', async () => {
    const dir = tmp();
    const a = new EmbeddedLog({ dataDir: dir });
    const b = new EmbeddedLog({ dataDir: dir });
    await a.append('books', entries(1));
    await expect(b.append('books', entries(1))).rejects.toThrow(/already held/);
    await b.append('venues', entries(1));
    await a.close();
    await b.append('books', entries(1));
    expect((await b.highWatermarks('books')).reduce((x, y) => x + y, 0)).toBe(2);
    await b.close();
  });

  it('finds the latest snapshot at or before a position for each key (rebuildStarts)', async () => {
    const log = new EmbeddedLog({ dataDir: tmp(), partitions: { books: 1 } });
    const e = (key: string, snapshot = false): { key: string; value: string; snapshot: boolean } => ({
      key,
      value: '{}',
      snapshot,
    });
    // offsets:   0 a(d)  1 a(S)  2 b(d)  3 a(d)  4 b(S)  5 a(S)  6 c(d)  7 b(d)
    await log.append('books', [
      e('a'),
      e('a', true),
      e('b'),
      e('a'),
      e('b', true),
      e('a', true),
      e('c'),
      e('b'),
    ]);
    expect(await log.rebuildStarts('books', [8])).toEqual([4]); // a@5, b@4, c@6 (first, no snapshot)
    expect(await log.rebuildStarts('books', [5])).toEqual([1]); // a@1, b@4
    expect(await log.rebuildStarts('books', [4])).toEqual([1]); // a@1, b@2 (first)
    expect(await log.rebuildStarts('books', [1])).toEqual([0]);
    expect(await log.rebuildStarts('books', [0])).toEqual([0]);
    await expect(log.rebuildStarts('books', [1, 2])).rejects.toThrow(/needs 1 offsets/);
    await log.close();
  });

  it('rejects an oversized entry before writing any of its batch, and round-trips large values', async () => {
    const log = new EmbeddedLog({ dataDir: tmp(), partitions: { books: 1 } });
    const bad = [
      { key: 'a', value: '1', snapshot: true },
      { key: 'k'.repeat(70_000), value: '2' },
    ];
    await expect(log.append('books', bad)).rejects.toThrow(/key is 70000 bytes; at most 65535/);
    // The same limit as Kafka's (MAX_RECORD_BYTES): refused with the indices named, nothing written.
    const tooBig = [
      { key: 'a', value: '1' },
      { key: 'b', value: 'x'.repeat(1_000_000) },
      { key: 'c', value: '€'.repeat(400_000) },
    ];
    const refused = await log.append('books', tooBig).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'too_large', rejected: [1, 2], appended: [] });
    expect(await log.highWatermarks('books')).toEqual([0]);
    expect(await log.rebuildStarts('books', [0])).toEqual([0]);
    // Larger than the encoder's first buffer, multi-byte characters, next to small entries.
    const big = 'é€😀x'.repeat(99_999);
    await log.append('books', [
      { key: 'a', value: '1' },
      { key: 'é|€', value: big },
      { key: 'a', value: '3' },
    ]);
    const got = await log.read('books', 0, 0);
    expect(got.map((e) => [e.offset, e.key, e.value.length])).toEqual([
      [0, 'a', 1],
      [1, 'é|€', big.length],
      [2, 'a', 1],
    ]);
    expect(got[1]!.value).toBe(big);
    // The rejected batch left no mark behind: 'a' is still first seen at offset 0.
    expect(await log.rebuildStarts('books', [3])).toEqual([0]);
    await log.close();
  });

  it('rejects bad arguments with clear errors', async () => {
    const log = new EmbeddedLog({ dataDir: tmp(), partitions: { books: 2 } });
    await expect(log.read('books', 5, 0)).rejects.toThrow(/partitions 0..1/);
    await expect(log.read('books', 0, -1)).rejects.toThrow(/non-negative/);
    await log.close();
    await expect(log.append('books', entries(1))).rejects.toThrow(/closed/);
  });

  it('opens read-only without creating or writing anything, and refuses a missing directory', async () => {
    const missing = join(tmp(), 'nope');
    expect(() => new EmbeddedLog({ dataDir: missing, readOnly: true })).toThrow(/no event log directory/);
    expect(existsSync(missing)).toBe(false);
    const empty = tmp();
    const ro = new EmbeddedLog({ dataDir: empty, readOnly: true });
    expect(await ro.partitions('quotes')).toBe(4);
    expect(await ro.highWatermarks('quotes')).toEqual([0, 0, 0, 0]);
    expect(await ro.read('quotes', 0, 0)).toEqual([]);
    await expect(ro.append('quotes', entries(1))).rejects.toThrow(/read-only/);
    const abort = new AbortController();
    const follow = ro.follow([{ topic: 'quotes', partition: 0, offset: 0 }], { signal: abort.signal });
    const it = follow[Symbol.asyncIterator]();
    const next = it.next();
    abort.abort();
    await next;
    await ro.close();
    expect(readdirSync(empty)).toEqual([]);

    const dir = tmp();
    const rw = new EmbeddedLog({ dataDir: dir, partitions: { books: 3 } });
    await rw.append('books', entries(10));
    await rw.close();
    const reader = new EmbeddedLog({ dataDir: dir, readOnly: true });
    expect(await readAll(reader, 'books')).toHaveLength(10);
    await reader.close();
    expect(readdirSync(join(dir, 'books')).sort()).toEqual(['0', '1', '2', 'topic.json']);
  });
});
