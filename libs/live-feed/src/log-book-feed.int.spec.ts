import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLog, logSink, type FollowOptions, type LogEntry, type LogPosition } from '@app/event-log';
import { bookRecords, listingRecords } from '@app/synth';
import { foldAndRebuildScenario } from '../../../test/kafka/feed-scenarios';
import {
  bookCounts,
  bookHashes,
  cacheCounts,
  foldRecords,
  memoryLogger,
} from '../../../test/kafka/book-hashes';
import { SPEC, waitCaughtUp } from '../../../test/kafka/feed-scenarios';
import { createBookFeed } from './log-book-feed';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'feed-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('LogBookFeed over the embedded log', () => {
  it('folds records in per-book order, skips a malformed one with its position, and rebuilds identically', async () => {
    const log = new EmbeddedLog({ dataDir: tmp(), partitions: { books: 4, venues: 2 } });
    await foldAndRebuildScenario(log);
    await log.close();
  });

  it('a reader process over the same directory rebuilds what the writer process wrote', async () => {
    const dir = tmp();
    const writer = new EmbeddedLog({ dataDir: dir });
    await logSink(writer).write([
      {
        v: 1,
        type: 'market',
        exchangeId: 'a',
        symbol: 'X/Y',
        base: 'X',
        quote: 'Y',
        takerFeeRate: null,
        receivedAt: 1,
      },
      {
        v: 1,
        type: 'book',
        exchangeId: 'a',
        symbol: 'X/Y',
        snapshot: true,
        bids: [[1, 1]],
        asks: [[2, 1]],
        sequence: 1,
        exchangeTimestamp: null,
        receivedAt: 2,
      },
    ]);
    const reader = new EmbeddedLog({ dataDir: dir });
    const feed = createBookFeed({ log: reader, logger: memoryLogger() });
    const seen: string[][] = [];
    feed.onChange((s) => seen.push([...s]));
    await feed.start();
    expect(feed.cache.book('a', 'X/Y')?.sequence).toBe(1);
    // A venue record notifies every symbol of that venue.
    await logSink(writer).write([
      {
        v: 1,
        type: 'venue',
        exchangeId: 'a',
        certified: true,
        connected: true,
        lastError: null,
        receivedAt: 3,
      },
    ]);
    const deadline = Date.now() + 5000;
    while (!feed.cache.certified('a') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(feed.cache.certified('a')).toBe(true);
    expect(seen[seen.length - 1]).toEqual(['X/Y']);
    expect(feed.positions()).toEqual({ venues: expect.any(Array), books: expect.any(Array) });
    await feed.stop();
    await writer.close();
    await reader.close();
  });

  it('resumes from its own positions after the log fails mid-follow: nothing lost, nothing applied twice', async () => {
    const dir = tmp();
    const writer = new EmbeddedLog({ dataDir: dir, partitions: { books: 3, venues: 1 } });
    const listings = listingRecords(SPEC);
    const books = [...bookRecords({ ...SPEC, bookRecords: 1500 })];
    await logSink(writer).write([...listings, ...books.slice(0, 500)]);
    // The real embedded log, with a fault: every follow dies after its third batch.
    class FailingLog extends EmbeddedLog {
      override async *follow(
        from: readonly LogPosition[],
        options: FollowOptions,
      ): AsyncIterable<LogEntry[]> {
        let n = 0;
        for await (const batch of super.follow(from, { ...options, maxBatch: 100 })) {
          yield batch;
          if (++n === 3) throw new Error('connection lost');
        }
      }
    }
    const reader = new FailingLog({ dataDir: dir });
    const logger = memoryLogger();
    const feed = createBookFeed({ log: reader, logger, fromSnapshots: false, retryMs: 1, maxRetryMs: 5 });
    await feed.start();
    for (let i = 500; i < books.length; i += 100) await logSink(writer).write(books.slice(i, i + 100));
    await waitCaughtUp(writer, feed);
    expect(feed.stats.restarts).toBeGreaterThan(3);
    expect(
      logger.lines.filter((l) => l.startsWith('warn event log read failed (connection lost)')).length,
    ).toBe(feed.stats.restarts);
    expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords([...listings, ...books])));
    expect(cacheCounts(feed.cache)).toEqual(bookCounts(books));
    expect(feed.stats.applied).toBe(listings.length + books.length);
    await feed.stop();
    await reader.close();
    await writer.close();
  });
});
