import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BookCache, bookHash } from '@app/books';
import type { EventRecord } from '@app/events';
import { EmbeddedLog, logSink } from '@app/event-log';
import { bookRecords, listingRecords, tempDir, versionedFold, type StreamSpec } from '@test/support';
import { booksAt } from './as-of';
import { InstantFold } from './instant-fold';
import { fileSource, logSources } from './record-sources';

const SPEC: StreamSpec = {
  venues: 3,
  symbolsPerVenue: 4,
  bookRecords: 3000,
  levels: 6,
  snapshotEvery: 50,
  startAt: 1_786_000_000_000,
  stepMs: 7,
};

/** Every book of `cache` as `exchangeId|symbol` -> hash (levels, sequence, times). */
function hashes(cache: BookCache): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of cache.allBooks()) if (b.sequence >= 0) out[`${b.exchangeId}|${b.symbol}`] = bookHash(b);
  return out;
}

describe('the books at an instant: one definition, three readers', () => {
  const dir = tempDir('instant-fold');
  afterAll(() => dir.remove());
  const records: EventRecord[] = [...listingRecords(SPEC), ...bookRecords(SPEC)];
  const end = records[records.length - 1]!.receivedAt;
  const instants = [SPEC.startAt + 50, SPEC.startAt + 4_321, Math.floor((SPEC.startAt + end) / 2), end];

  it('asOf (positionsAt + rebuildBooks), a backtest over the log and a backtest over a recording agree, instant by instant', async () => {
    const log = new EmbeddedLog({ dataDir: join(dir.path, 'log'), partitions: { books: 4, venues: 2 } });
    await logSink(log).write(records);
    const recording = join(dir.path, 'recording.jsonl');
    writeFileSync(recording, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const symbols = new Set(records.flatMap((r) => (r.type === 'venue' ? [] : [r.symbol])));
    const upTo = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
    const overLog = new InstantFold(await logSources(log, (s) => expect.fail(s.problem)));
    const overFile = new InstantFold([fileSource(recording, (s) => expect.fail(s.problem))]);
    for (const t of instants) {
      const expected = hashes(versionedFold(records, t));
      expect(Object.keys(expected).length).toBeGreaterThan(0);
      const at = await booksAt(log, upTo, t, end, symbols);
      if (!at.ok) throw new Error(at.error);
      expect(hashes(at.cache)).toEqual(expected);
      await overLog.advanceTo(t);
      expect(hashes(overLog.cache)).toEqual(expected);
      await overFile.advanceTo(t);
      expect(hashes(overFile.cache)).toEqual(expected);
    }
    expect(overLog.folded).toBe(records.length);
    await log.close();
  });
});
