import { expect } from 'vitest';
import type { EventRecord } from '@app/events';
import { logSink, type EventLog } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@app/synth';
import { createBookFeed } from '@app/live-feed';
import { bookCounts, bookHashes, cacheCounts, foldRecords, memoryLogger, waitFor } from './book-hashes';

export const SPEC: StreamSpec = {
  venues: 3,
  symbolsPerVenue: 4,
  bookRecords: 4000,
  levels: 10,
  snapshotEvery: 100,
  startAt: 1_786_000_000_000,
};

/** Whether a feed has applied everything up to the log's current high-water marks. */
export async function caughtUp(
  log: EventLog,
  positions: () => Partial<Record<string, number[]>>,
): Promise<boolean> {
  for (const topic of ['books', 'venues'] as const) {
    const hwm = await log.highWatermarks(topic);
    const have = positions()[topic] ?? [];
    if (hwm.some((h, p) => (have[p] ?? 0) < h)) return false;
  }
  return true;
}

async function waitCaughtUp(
  log: EventLog,
  feed: { positions(): Partial<Record<string, number[]>> },
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await caughtUp(log, () => feed.positions()))) {
    if (Date.now() > deadline) throw new Error(`feed not caught up: ${JSON.stringify(feed.positions())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Records written while a feed runs appear in its cache with per-book order kept (same hashes as
 * an independent fold, each record applied once); a malformed entry is logged with its position
 * and skipped; a fresh feed (the API restarted) rebuilds identical books from the snapshots.
 */
export async function foldAndRebuildScenario(log: EventLog): Promise<void> {
  const sink = logSink(log);
  const listings = listingRecords(SPEC);
  const books = [...bookRecords(SPEC)];
  const half = books.length / 2;
  await sink.write([...listings, ...books.slice(0, half)]);

  const logger = memoryLogger();
  // This feed folds from the beginning so that it can count every record; the rebuild below uses snapshots.
  const feed = createBookFeed({ log, logger, fromSnapshots: false });
  const changed = new Set<string>();
  feed.onChange((symbols) => symbols.forEach((s) => changed.add(s)));
  await feed.start();
  expect(feed.isReady()).toBe(true);
  expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords([...listings, ...books.slice(0, half)])));

  // The rest while the feed follows the tail, with one malformed entry in the middle.
  await sink.write(books.slice(half, half + 500));
  await log.append('books', [
    { key: 'venue00|BTC/USDT', value: '{"v":1,"type":"book","exchangeId":"venue00"' },
  ]);
  for (let i = half + 500; i < books.length; i += 250) await sink.write(books.slice(i, i + 250));
  await waitCaughtUp(log, feed);

  const all: EventRecord[] = [...listings, ...books];
  expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords(all)));
  // Each book record applied exactly once (updateCount counts book records folded).
  expect(cacheCounts(feed.cache)).toEqual(bookCounts(books));
  expect(feed.stats.skipped).toBe(1);
  const warning = logger.lines.find((l) => l.startsWith('warn skipped malformed record at books/'));
  expect(warning).toMatch(
    /^warn skipped malformed record at books\/\d+@\d+: rejected record .* is not valid JSON$/,
  );
  expect(changed.has('BTC/USDT')).toBe(true);
  await feed.stop();

  // A fresh feed over the same log starts from the latest snapshots and rebuilds the same books.
  const hwm = await log.highWatermarks('books');
  const starts = await log.rebuildStarts('books', hwm);
  expect(starts.some((s) => s > 0)).toBe(true);
  const rebuilt = createBookFeed({ log, logger: memoryLogger() });
  await rebuilt.start();
  expect(rebuilt.isReady()).toBe(true);
  expect(bookHashes(rebuilt.cache)).toEqual(bookHashes(feed.cache));
  expect(rebuilt.cache.symbols()).toEqual(feed.cache.symbols());
  expect(rebuilt.stats.applied).toBeLessThan(feed.stats.applied);
  await rebuilt.stop();
}

export { waitCaughtUp, waitFor };
