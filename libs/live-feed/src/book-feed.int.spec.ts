import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaLog, logSink } from '@app/event-log';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solve } from '@app/routing';
import { bookRecords, listingRecords } from '@app/synth';
import { ownedBroker, testBrokers, type OwnedBroker } from '../../../test/kafka/broker';
import {
  bookCounts,
  bookHashes,
  cacheCounts,
  foldRecords,
  memoryLogger,
} from '../../../test/kafka/book-hashes';
import { foldAndRebuildScenario, SPEC, waitCaughtUp } from '../../../test/kafka/feed-scenarios';
import { createBookFeed } from './log-book-feed';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

const prefix = (): string => `t-${randomUUID().slice(0, 8)}`;

describe('LogBookFeed over Kafka (real broker)', () => {
  it('folds records in per-book order, skips a malformed one with its position, and rebuilds identically', async () => {
    const log = new KafkaLog({
      brokers: (await testBrokers()).split(','),
      topicPrefix: prefix(),
      partitions: { books: 4, venues: 2 },
    });
    try {
      await foldAndRebuildScenario(log);
    } finally {
      await log.close();
    }
  });

  describe('broker restart', () => {
    let broker: OwnedBroker;
    beforeAll(async () => {
      broker = await ownedBroker('restart', 1);
    });
    afterAll(async () => {
      await broker?.dispose();
    });

    it('keeps the cache while the broker is down, then resumes with no record lost or applied twice', async () => {
      const topicPrefix = prefix();
      const log = new KafkaLog({
        brokers: [broker.brokers],
        topicPrefix,
        partitions: { books: 4, venues: 2 },
      });
      const listings = listingRecords(SPEC);
      const books = [...bookRecords({ ...SPEC, bookRecords: 2000 })];
      await logSink(log).write([...listings, ...books.slice(0, 1000)]);
      const logger = memoryLogger();
      // kafkajs usually rides out a short outage inside one follow (re-seeking after the rejoin);
      // the feed's own resume-from-positions path is covered in log-book-feed.int.spec.ts.
      const feedLog = new KafkaLog({ brokers: [broker.brokers], topicPrefix });
      const feed = createBookFeed({
        log: feedLog,
        logger,
        fromSnapshots: false,
        retryMs: 200,
        maxRetryMs: 1000,
      });
      await feed.start();
      const before = bookHashes(foldRecords([...listings, ...books.slice(0, 1000)]));
      expect(bookHashes(feed.cache)).toEqual(before);

      await broker.stop();
      await new Promise((r) => setTimeout(r, 1500));
      // While the broker is down the cache still answers with what it had: quotes keep coming
      // with the numbers an independent fold gives, and age into all_books_stale, never into
      // wrong numbers.
      expect(bookHashes(feed.cache)).toEqual(before);
      const newest = Math.max(...books.slice(0, 1000).map((b) => b.receivedAt));
      const request = routeRequest({ requestId: 'down', from: 'BTC', to: 'USDT', amount: 0.5, bridges: [] });
      const config = DEFAULT_ROUTING_CONFIG;
      const fresh = solve({ request, books: feed.cache, now: newest + 1000, config });
      const independent = solve({
        request,
        books: foldRecords([...listings, ...books.slice(0, 1000)]),
        now: newest + 1000,
        config,
      });
      expect(fresh.unroutableReason).toBeNull();
      expect(JSON.stringify(fresh)).toBe(JSON.stringify(independent));
      const aged = solve({ request, books: feed.cache, now: newest + config.staleBookMs + 1, config });
      expect(aged.unroutableReason).toBe('all_books_stale');
      expect(aged.hops).toEqual([]);
      await broker.start();

      await logSink(log).write(books.slice(1000));
      await waitCaughtUp(log, feed);
      expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords([...listings, ...books])));
      expect(cacheCounts(feed.cache)).toEqual(bookCounts(books));
      expect(feed.stats.applied).toBe(listings.length + books.length);
      await feed.stop();
      await feedLog.close();
      await log.close();
    }, 90_000);
  });
});
