import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BookCache, bookHash } from '@app/books';
import type { EventRecord } from '@app/events';
import { EmbeddedLog, KafkaLog, logSink, type EventLog } from '@app/event-log';
import {
  bookRecords,
  cutFold,
  listingRecords,
  stateHashes,
  tempDir,
  versionedFold,
  type StreamSpec,
} from '@test/support';
import { testBrokers } from '../../../test/kafka/broker';
import { booksAt } from './as-of';
import { InstantFold } from './instant-fold';
import { logSources } from './record-sources';
import { rebuildBooks } from './rebuild-books';
import { TimeIndex } from './time-index';

const T = 1_786_000_000_000;
const SPEC: StreamSpec = {
  venues: 6,
  symbolsPerVenue: 3,
  bookRecords: 2400,
  levels: 5,
  snapshotEvery: 40,
  startAt: T,
  stepMs: 9,
};

/** The venue index of a record (venue00 -> 0). */
const venueNo = (r: EventRecord): number => Number(r.exchangeId.slice(5));

/** receivedAt moved by `ms` (a clock that is off). */
const shift = (r: EventRecord, ms: number): EventRecord => ({ ...r, receivedAt: r.receivedAt + ms });

/** The live stream in the order it was written, every record as its writer stamped it. */
const live = (spec: StreamSpec): EventRecord[] => [...listingRecords(spec), ...bookRecords(spec)];

/** Two ingestors write one log: venues 3-5 through one whose clock is 5 s behind the other's. */
function twoWriters(): EventRecord[] {
  return live(SPEC).map((r) => (venueNo(r) >= 3 ? shift(r, -5_000) : r));
}

/** One ingestor whose clock steps back 3 s half-way: a book's own records go back in time. */
function clockStep(): EventRecord[] {
  const records = live(SPEC);
  const half = Math.floor(records.length / 2);
  return records.map((r, i) => (i >= half ? shift(r, -3_000) : r));
}

/** The live stream, then a recording of an hour before (same venues and books) fed in after it. */
function olderRecording(): EventRecord[] {
  const older = live({ ...SPEC, startAt: T - 3_600_000, seed: 7 });
  return [...live(SPEC), ...older];
}

/** Only the books (the old per-book cut is compared on books). */
function bookStates(cache: BookCache): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of cache.allBooks()) out[`${b.exchangeId}|${b.symbol}`] = `${b.inSync} ${bookHash(b)}`;
  return out;
}

/** Instants across the records' whole time range, in order, plus the edges. */
function instants(records: readonly EventRecord[]): number[] {
  const times = records.map((r) => r.receivedAt).sort((a, b) => a - b);
  const picks = [1, 3, 7, 11, 16, 19].map((k) => times[Math.floor((k / 20) * (times.length - 1))]!);
  return [...new Set([times[0]!, ...picks, times[times.length - 1]!])].sort((a, b) => a - b);
}

/**
 * Each scenario and whether the versioned read must differ from the per-book cut (the rule before
 * issue 21: every record of a book with receivedAt <= t, in log order) at some instant. With two
 * skewed writers each book's own records still grow in time, so the two rules agree; a clock
 * stepped back and an older recording fed in later are where they part.
 */
const SCENARIOS: [string, () => EventRecord[], boolean][] = [
  ['two writers with clocks 5 s apart', twoWriters, false],
  ['a clock that steps back 3 s', clockStep, true],
  ['an older recording fed into a newer log', olderRecording, true],
];

async function check(log: EventLog, records: readonly EventRecord[], differs: boolean): Promise<void> {
  await logSink(log).write(records);
  const upTo = { books: await log.highWatermarks('books'), venues: await log.highWatermarks('venues') };
  const symbols = new Set(records.flatMap((r) => (r.type === 'venue' ? [] : [r.symbol])));
  const ts = instants(records);
  const now = ts[ts.length - 1]!;
  const fold = new InstantFold(await logSources(log, (s) => expect.fail(s.problem), upTo));
  let differsFromPrefix = 0;
  let differsFromCut = 0;
  for (const t of ts) {
    const expected = stateHashes(versionedFold(records, t));
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    const at = await booksAt(log, upTo, t, now, symbols);
    if (!at.ok) throw new Error(at.error);
    expect(stateHashes(at.cache), `asOf ${t}`).toEqual(expected);
    // replay quote's path: the same read (it builds the time index in its own process).
    const replayed = await rebuildBooks(log, upTo, symbols, { asOf: t, timeIndex: new TimeIndex(log) });
    expect(stateHashes(replayed.cache), `rebuild with a fresh index at ${t}`).toEqual(expected);
    await fold.advanceTo(t);
    expect(stateHashes(fold.cache), `InstantFold at ${t}`).toEqual(expected);
    const books = bookStates(versionedFold(records, t));
    if (JSON.stringify(bookStates(cutFold(records, t))) !== JSON.stringify(books)) differsFromCut++;
    // One position per partition (stop at the first later record) gives other books still.
    const prefix = new BookCache();
    for (const r of records) {
      if (r.receivedAt > t) break;
      prefix.apply(r);
    }
    if (JSON.stringify(bookStates(prefix)) !== JSON.stringify(books)) differsFromPrefix++;
  }
  expect(differsFromPrefix, 'the scenario must be one where order and time disagree').toBeGreaterThan(0);
  if (differs)
    expect(differsFromCut, 'the versioned read must differ from the per-book cut here').toBeGreaterThan(0);
  else expect(differsFromCut).toBe(0);
  const before = await booksAt(log, upTo, ts[0]! - 1, now, symbols);
  expect(before.ok).toBe(false);
  if (!before.ok) expect(before.error).toContain('before the oldest state');
}

describe('asOf and InstantFold when receivedAt runs backwards along the log', () => {
  const dir = tempDir('time-backwards');
  const opened: EventLog[] = [];
  afterAll(async () => {
    for (const log of opened) await log.close();
    dir.remove();
  });

  describe.each(SCENARIOS)('%s', (_name, make, differs) => {
    it('embedded log: books, markets and venues at each instant equal an independent versioned fold', async () => {
      const log = new EmbeddedLog({
        dataDir: join(dir.path, randomUUID()),
        partitions: { books: 3, venues: 2 },
      });
      opened.push(log);
      await check(log, make(), differs);
    });

    it('Kafka (real broker): books, markets and venues at each instant equal an independent versioned fold', async () => {
      const brokers = await testBrokers();
      const log = new KafkaLog({
        brokers: brokers.split(','),
        topicPrefix: `tb-${randomUUID().slice(0, 8)}`,
        partitions: { books: 3, venues: 2, quotes: 1 },
      });
      opened.push(log);
      await check(log, make(), differs);
    }, 120_000);
  });
});
