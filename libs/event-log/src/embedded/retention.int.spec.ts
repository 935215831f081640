import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, waitFor } from '@test/support';
import { bundle, runChild } from '../../test/child-process';
import type { AppendEntry, LogEntry } from '../event-log';
import { HealthRegistry } from '../log-health';
import { EmbeddedLog } from './embedded-log';
import { PartitionReader } from './partition-reader';
import type { RetentionResult } from './retention';
import { retentionLine } from './retention-pass';
import { KIND_SNAPSHOT, readSnapshotMarks } from './snapshot-index';

const HOUR = 3_600_000;
const dirs: { remove(): void }[] = [];
const tmp = (): string => {
  const d = tempDir('retention');
  dirs.push(d);
  return d.path;
};
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
const T = 1_800_000_000_000;

/**
 * A books stream over one partition: `quiet` snapshots once at the start and never changes again;
 * the busy keys write a delta every step and a snapshot every `every` steps of theirs.
 */
function stream(steps: number, from = 0, every = 20): AppendEntry[] {
  const out: AppendEntry[] = [];
  if (from === 0) out.push({ key: 'quiet', value: `{"receivedAt":${T},"v":"quiet-0"}`, snapshot: true });
  for (let s = from; s < from + steps; s++)
    for (const key of ['a', 'b', 'c']) {
      const snapshot = s % every === 0;
      out.push({ key, value: `{"receivedAt":${T + s * 60_000},"v":"${key}-${s}"}`, snapshot });
    }
  return out;
}

/** Per key, the entries a fold from the key's latest snapshot at or below `upTo` sees: its state there. */
function statesAt(
  entries: readonly LogEntry[],
  upTo: number,
  snapshotOffsets: ReadonlySet<number>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of entries) {
    if (e.offset >= upTo) break;
    if (snapshotOffsets.has(e.offset) || !out.has(e.key)) out.set(e.key, []);
    out.get(e.key)!.push(e.value);
  }
  return out;
}

async function all(log: EmbeddedLog): Promise<LogEntry[]> {
  return log.read('books', 0, 0);
}

const open = (dir: string, maxAgeMs: number | null, maxBytes: number | null = null): EmbeddedLog =>
  new EmbeddedLog({
    dataDir: dir,
    partitions: { books: 1 },
    segmentBytes: 2048,
    indexIntervalBytes: 256,
    retention: { policy: { maxAgeMs, maxBytes }, checkEveryMs: 3_600_000 },
  });

describe('embedded log retention', () => {
  it('removes old segments but every position from the horizon on rebuilds exactly as before', async () => {
    const dir = tmp();
    const log = open(dir, 2 * HOUR);
    for (const e of stream(300)) await log.append('books', [e]);
    const before = await all(log);
    const snaps = new Set(
      readSnapshotMarks(join(dir, 'books', '0'))
        .marks.filter((m) => m.kind === KIND_SNAPSHOT)
        .map((m) => m.offset),
    );
    const files = readdirSync(join(dir, 'books', '0')).filter((f) => f.endsWith('.log')).length;

    const results = log.applyRetention(T + 300 * 60_000);
    expect(results).toHaveLength(1);
    const horizon = (await log.retainedFrom('books'))[0]!;
    expect(horizon).toBe(results[0]!.retainedFrom);
    expect(horizon).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'books', '0')).filter((f) => f.endsWith('.log')).length).toBeLessThan(files);
    // The oldest retained entry is within the age bound (one segment of slack).
    const after = await all(log);
    const firstRetained = after.find((e) => e.offset >= horizon)!;
    expect(JSON.parse(firstRetained.value).receivedAt).toBeGreaterThan(
      T + 300 * 60_000 - 2 * HOUR - 60 * 60_000,
    );
    expect(after.length).toBeLessThan(before.length);
    // The quiet book's only snapshot (offset 0) is kept, at its own offset.
    expect(after[0]).toEqual(before[0]);
    const end = (await log.highWatermarks('books'))[0]!;
    for (let upTo = horizon; upTo <= end; upTo += 7)
      expect(statesAt(after, upTo, snaps)).toEqual(statesAt(before, upTo, snaps));
    // A rebuild from the index's start reads exactly the same states.
    const [start] = await log.rebuildStarts('books', [end]);
    expect(statesAt(await log.read('books', 0, start!), end, snaps)).toEqual(statesAt(before, end, snaps));
    expect(log.health().damage).toEqual([]);

    // Appends go on; a second pass moves the horizon, keeping the same guarantee.
    for (const e of stream(200, 300)) await log.append('books', [e]);
    const before2 = await all(log);
    const snaps2 = new Set(
      readSnapshotMarks(join(dir, 'books', '0'))
        .marks.filter((m) => m.kind === KIND_SNAPSHOT)
        .map((m) => m.offset),
    );
    log.applyRetention(T + 500 * 60_000);
    const horizon2 = (await log.retainedFrom('books'))[0]!;
    expect(horizon2).toBeGreaterThan(horizon);
    const after2 = await all(log);
    const end2 = (await log.highWatermarks('books'))[0]!;
    for (let upTo = horizon2; upTo <= end2; upTo += 5)
      expect(statesAt(after2, upTo, snaps2)).toEqual(statesAt(before2, upTo, snaps2));
    await log.close();

    // Reopened (writer and read-only reader): same entries, no damage reported.
    const again = open(dir, 2 * HOUR);
    expect(await all(again)).toEqual(after2);
    expect(again.health().damage).toEqual([]);
    await again.close();
  });

  it('a reader in the middle of an old segment when retention runs reads on into the kept entries', async () => {
    const dir = tmp();
    const log = open(dir, 2 * HOUR);
    for (const e of stream(300)) await log.append('books', [e]);
    const before = await all(log);
    const snaps = new Set(
      readSnapshotMarks(join(dir, 'books', '0'))
        .marks.filter((m) => m.kind === KIND_SNAPSHOT)
        .map((m) => m.offset),
    );
    const reader = new PartitionReader(
      join(dir, 'books', '0'),
      'books',
      0,
      new HealthRegistry(() => undefined),
    );
    const cursor = reader.seek(0);
    const head = reader.next(cursor, 10);
    expect(log.applyRetention(T + 300 * 60_000)).toHaveLength(1);
    const rest = reader.next(cursor, Number.MAX_SAFE_INTEGER);
    reader.close();
    const seen = [...head, ...rest];
    expect(seen.map((e) => e.offset)).toEqual([...seen.map((e) => e.offset)].sort((a, b) => a - b));
    const end = (await log.highWatermarks('books'))[0]!;
    expect(seen[seen.length - 1]!.offset).toBe(end - 1);
    expect(statesAt(seen, end, snaps)).toEqual(statesAt(before, end, snaps));
    // At the horizon every book's state lies in the kept entries of the compacted segment.
    const horizon = (await log.retainedFrom('books'))[0]!;
    expect(statesAt(seen, horizon, snaps)).toEqual(statesAt(before, horizon, snaps));
    await log.close();
  });

  it('the writer runs passes on its timer with its clock and says what each removed', async () => {
    const dir = tmp();
    const passes: RetentionResult[][] = [];
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: 1 },
      segmentBytes: 2048,
      retention: {
        policy: { maxAgeMs: 2 * HOUR, maxBytes: null },
        checkEveryMs: 20,
        clock: () => T + 300 * 60_000,
        onPass: (r) => passes.push([...r]),
      },
    });
    for (const e of stream(300)) await log.append('books', [e]);
    await waitFor('a retention pass', () => passes.length > 0, 10_000);
    expect(passes[0]![0]!.retainedFrom).toBe((await log.retainedFrom('books'))[0]);
    expect(passes[0]![0]!.retainedFrom).toBeGreaterThan(0);
    expect(retentionLine(passes[0]!)).toMatch(
      /^event log retention: books\/0: \d+ segment\(s\) removed, horizon offset \d+/,
    );
    await log.close();
  });

  it('a timer pass compacts over many event-loop turns and keeps the marks appended meanwhile', async () => {
    const dir = tmp();
    const passes: RetentionResult[][] = [];
    let now = T; // nothing is old yet: the timer's passes find nothing due while the log fills
    const log = new EmbeddedLog({
      dataDir: dir,
      partitions: { books: 1 },
      segmentBytes: 256 * 1024,
      retention: {
        policy: { maxAgeMs: 2 * HOUR, maxBytes: null },
        checkEveryMs: 20,
        clock: () => now,
        onPass: (r) => passes.push([...r]),
      },
    });
    // 'quiet' snapshots at offset 0 and never again, so the compaction reads every expired entry.
    const steps = 20_000;
    const entries = stream(steps);
    for (let i = 0; i < entries.length; i += 5_000) await log.append('books', entries.slice(i, i + 5_000));
    now = T + steps * 60_000;
    // Count event-loop turns while the pass runs, and append snapshots of a new key meanwhile.
    let turns = 0;
    let late = 0;
    while (passes.length === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns++;
      if (turns % 2 === 0 && late < 20) {
        const at = T + (steps + late) * 60_000;
        await log.append('books', [
          { key: 'late', value: `{"receivedAt":${at},"v":"late-${late++}"}`, snapshot: true },
        ]);
      }
      if (turns > 1_000_000) throw new Error('no retention pass');
    }
    const horizon = passes[0]![0]!.retainedFrom;
    expect(horizon).toBeGreaterThan(0);
    // About 60,000 entries read in batches of 4,096 with a yield after each: many turns, not one.
    expect(turns).toBeGreaterThan(5);
    expect(late).toBeGreaterThan(0);
    // The snapshot index rewritten by the pass still holds every mark of 'late' appended during it.
    const lateMarks = readSnapshotMarks(join(dir, 'books', '0')).marks.filter((m) => m.key === 'late');
    expect(lateMarks.filter((m) => m.kind === KIND_SNAPSHOT).length).toBe(late);
    const read = await all(log);
    expect(read.filter((e) => e.key === 'late').map((e) => e.value)).toEqual(
      Array.from({ length: late }, (_, i) => `{"receivedAt":${T + (steps + i) * 60_000},"v":"late-${i}"}`),
    );
    await log.close();
  });

  it('keeps a partition under its byte bound', async () => {
    const dir = tmp();
    const log = open(dir, null, 16 * 1024);
    for (let i = 0; i < 10; i++) {
      for (const e of stream(100, i * 100)) await log.append('books', [e]);
      log.applyRetention(T);
    }
    const { partitionBytes } = await import('./retention');
    // bound + one active segment + the compacted one's kept snapshots
    expect(partitionBytes(join(dir, 'books', '0'))).toBeLessThan(16 * 1024 + 2 * 2048 + 4096);
    await log.close();
  });

  it('a pass interrupted by a crash leaves a readable log that the next writer finishes', async () => {
    const dir = tmp();
    const log = open(dir, 2 * HOUR);
    for (const e of stream(300)) await log.append('books', [e]);
    const before = await all(log);
    await log.close();
    const saved = tmp();
    cpSync(dir, saved, { recursive: true });
    const w = open(dir, 2 * HOUR);
    await w.partitions('books');
    await w.append('books', []);
    w.applyRetention(T + 300 * 60_000);
    await w.close();
    const ro = new EmbeddedLog({ dataDir: dir, readOnly: true, partitions: { books: 1 } });
    const horizon = (await ro.retainedFrom('books'))[0]!;
    await ro.close();
    const part = join(dir, 'books', '0');
    const compacted = readdirSync(part);

    // Crash after the compacted segment replaced the first one, before the covered ones were unlinked.
    for (const f of readdirSync(join(saved, 'books', '0')))
      if (!existsSync(join(part, f))) cpSync(join(saved, 'books', '0', f), join(part, f));
    const reader = new EmbeddedLog({ dataDir: dir, readOnly: true, partitions: { books: 1 } });
    const seen = await all(reader);
    expect(seen.filter((e) => e.offset >= horizon)).toEqual(before.filter((e) => e.offset >= horizon));
    expect(reader.health().damage).toEqual([]);
    await reader.close();
    const writer = open(dir, 2 * HOUR);
    await writer.append('books', []);
    await writer.partitions('books');
    writer.appendSync('books', [{ key: 'a', value: `{"receivedAt":${T + 301 * 60_000},"v":"x"}` }]);
    expect(readdirSync(part).sort()).toEqual([...compacted].sort());
    await writer.close();

    // Crash before anything was replaced: the horizon written, a half-written compacted file left.
    rmSync(dir, { recursive: true });
    cpSync(saved, dir, { recursive: true });
    writeFileSync(join(part, 'retention.json'), JSON.stringify({ retainedFrom: horizon }));
    writeFileSync(join(part, '00000000000000000000.log.compact'), 'half');
    const w2 = open(dir, 2 * HOUR);
    w2.appendSync('books', [{ key: 'a', value: `{"receivedAt":${T + 301 * 60_000},"v":"x"}` }]);
    expect((await all(w2)).slice(0, before.length)).toEqual(before);
    expect(existsSync(join(part, '00000000000000000000.log.compact'))).toBe(false);
    await w2.close();
  });
});

const childJs = bundle(join(__dirname, '..', '..', 'test', 'retention-child.ts'));

describe('embedded log retention across a SIGKILL', () => {
  it('a writer killed at random moments while retention runs loses no acknowledged entry a book needs', async () => {
    const dir = tmp();
    let acknowledged = 0;
    for (const after of [2_000, 6_000, 12_000]) {
      const child = runChild(childJs, [dir]);
      let last = 0;
      child.proc.stdout!.on('data', (d: Buffer) => {
        const lines = d.toString().trim().split('\n');
        last = Number(lines[lines.length - 1]);
      });
      await child.waitFor(new RegExp(`^${after}$`, 'm'));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 50)));
      child.proc.kill('SIGKILL');
      await child.exited;
      acknowledged = last;

      const log = new EmbeddedLog({ dataDir: dir, partitions: { books: 2 } });
      await log.append('books', []);
      expect(log.health().damage).toEqual([]);
      const horizons = await log.retainedFrom('books');
      expect(horizons.some((h) => h > 0)).toBe(true);
      const ends = await log.highWatermarks('books');
      const starts = await log.rebuildStarts('books', ends);
      let total = 0;
      for (let p = 0; p < 2; p++) {
        // Per key, from its latest snapshot on, the counters run on without a gap to its newest entry.
        const entries = await log.read('books', p, starts[p]!);
        const byKey = new Map<string, number[]>();
        for (const e of entries) {
          const { k, n } = JSON.parse(e.value) as { k: string; n: number };
          if (n % 8 === 0) byKey.set(k, []);
          byKey.get(k)?.push(n);
        }
        for (const [, ns] of byKey) {
          expect(ns[0]! % 8).toBe(0);
          expect(ns).toEqual(ns.map((_, i) => ns[0]! + i));
          total += ns[ns.length - 1]! + 1;
        }
      }
      // Every key's newest entry is there: the counters add up to at least what was acknowledged.
      expect(total).toBeGreaterThanOrEqual(acknowledged);
      await log.close();
    }
  }, 120_000);
});
