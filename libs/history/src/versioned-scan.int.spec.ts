import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRecordLine, type BookRecord, type EventRecord } from '@app/events';
import { EmbeddedLog, logSink } from '@app/event-log';
import { book, messyLog, stateHashes, tempDir, versionedFold } from '@test/support';
import { rebuildBooks } from './rebuild-books';
import { TIME_BLOCK, TimeIndex } from './time-index';

// The random-access versioned read (rebuildBooks with asOf) on logs whose clocks misbehave in
// every way at once (jitter, deltas before a book's first snapshot, an older copy appended), at
// every few milliseconds of their range, against the independent fold of test/support.
describe('rebuildBooks with asOf: the versioned read by random access', () => {
  const dir = tempDir('versioned-scan');
  afterAll(() => dir.remove());

  it.each([1, 2])('seed %i: every instant equals an independent versioned fold', async (seed) => {
    const records = messyLog(seed, 3000);
    for (const r of records) expect(parseRecordLine(JSON.stringify(r)).ok).toBe(true);
    const log = new EmbeddedLog({
      dataDir: join(dir.path, randomUUID()),
      partitions: { books: 2, venues: 2 },
    });
    try {
      await logSink(log).write(records);
      const upTo = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
      const symbols = new Set(records.flatMap((r) => (r.type === 'venue' ? [] : [r.symbol])));
      const index = new TimeIndex(log);
      const times = records.map((r) => r.receivedAt).sort((a, b) => a - b);
      for (let t = times[0]! - 5; t <= times[times.length - 1]! + 5; t += 1009) {
        const { cache } = await rebuildBooks(log, upTo, symbols, { asOf: t, timeIndex: index });
        expect(stateHashes(cache), `seed ${seed} t ${t}`).toEqual(stateHashes(versionedFold(records, t)));
      }
    } finally {
      await log.close();
    }
  });
});

describe('rebuildBooks with asOf: what the time windows must not miss', () => {
  const dir = tempDir('versioned-windows');
  afterAll(() => dir.remove());
  const T = 1_786_000_000_000;
  /** A block's worth of filler records of another book, stamped evenly over [from, to]. */
  const filler = (n: number, from: number, to: number, seq0: number): BookRecord[] =>
    Array.from({ length: n }, (_, i) => ({
      ...book('x', 'F/USDT', [[1, 1]], [[2, 1]], seq0 + i, from + Math.floor(((to - from) * i) / n)),
    }));
  const k = (sequence: number, receivedAt: number, snapshot = true, price = 100 + sequence): BookRecord => ({
    ...book('k', 'K/USDT', [[price - 1, 1]], [[price, 1]], sequence, receivedAt),
    snapshot,
  });

  it("a key's greatest-stamped record outside the first window, and a base behind blocks stamped after t", async () => {
    const t = T + 10_000;
    const records: EventRecord[] = [
      // block 0: k's best at t (T+7 s), in a block the first window [t-2 s, t] does not meet.
      ...filler(TIME_BLOCK - 1, T + 6_000, T + 7_500, 1),
      k(1, T + 7_000),
      // block 1: a worse k (older stamp, later position) in a block the first window meets.
      ...filler(TIME_BLOCK - 1, T + 8_000, T + 9_900, 1_000),
      k(2, T + 5_000),
      // block 2: k's greatest-stamped record is after t, so the index alone cannot answer.
      k(3, T + 20_000),
      ...filler(TIME_BLOCK - 1, T + 20_000, T + 21_000, 2_000),
      // Book j: a snapshot, a delta in a block stamped wholly after t, then the delta that is j's
      // record at t: the state after it includes the one in between.
      book('j', 'K/USDT', [[90, 1]], [[110, 1]], 1, T + 1_000),
      { ...book('j', 'K/USDT', [[91, 2]], [], 2, T + 50_000), snapshot: false },
      ...filler(TIME_BLOCK, T + 50_000, T + 51_000, 3_000),
      { ...book('j', 'K/USDT', [[92, 3]], [], 3, T + 9_000), snapshot: false },
    ];
    const log = new EmbeddedLog({
      dataDir: join(dir.path, randomUUID()),
      partitions: { books: 1, venues: 1 },
    });
    try {
      await logSink(log).write(records);
      const upTo = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
      const { cache } = await rebuildBooks(log, upTo, new Set(['K/USDT', 'F/USDT']), { asOf: t });
      expect(stateHashes(cache)).toEqual(stateHashes(versionedFold(records, t)));
      expect(cache.book('k', 'K/USDT')!.sequence).toBe(1);
      const j = cache.book('j', 'K/USDT')!;
      expect([j.sequence, j.bids.count, j.inSync]).toEqual([3, 3, true]);
    } finally {
      await log.close();
    }
  });
});
