import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { createBookFeed } from '@app/live-feed';
import { KafkaLog, logSink, MAX_RECORD_BYTES } from '@app/event-log';
import { RecordWriter } from '@app/venues';
import { ownedBroker, type OwnedBroker } from '../kafka/broker';
import { bookHashes, memoryLogger, waitFor } from '../kafka/book-hashes';
import { caughtUp } from '../kafka/feed-scenarios';
import { MemoryLogger } from '../venues/ingest-harness';
import { VenueModel } from './support/venue-model';

// Issue 15: the ingestor's writer against a real broker killed with SIGKILL and started again,
// with a buffer budget small enough that the outage overflows it, and an oversized record. The
// caches must end at the truth (every book as the venues have it): dropped records are replaced
// by the snapshots published after the outage; acknowledged records are never lost.
let broker: OwnedBroker;
beforeAll(async () => {
  broker = await ownedBroker('storage-kill', 3);
});
afterAll(async () => {
  await broker?.dispose();
});

describe('ingestor writer through a broker SIGKILL and restart', () => {
  it('keeps running, drops over budget with a named count, republishes every book, and the caches end at the truth', async () => {
    const topicPrefix = `t-${randomUUID().slice(0, 8)}`;
    const log = new KafkaLog({
      brokers: [broker.brokers],
      topicPrefix,
      partitions: { books: 4, venues: 2 },
      onProblem: () => undefined,
    });
    const venues = new VenueModel({
      venues: 3,
      symbolsPerVenue: 4,
      bookRecords: 6000,
      levels: 8,
      snapshotEvery: 1_000_000, // no snapshots but the first: a lost delta shows until a republish
      startAt: 1_786_000_000_000,
    });
    const logger = new MemoryLogger();
    const writer: RecordWriter = new RecordWriter({
      sink: logSink(log),
      logger,
      budgetBytes: 150_000,
      backoff: { initialMs: 100, maxMs: 1000 },
      onLost: (books) => venues.lost(books),
      onRecovered: () => writer.push(venues.snapshots()),
    });
    writer.push(venues.listings);
    writer.push(venues.next(1000));
    await waitFor('first records written', () => writer.queued === 0, 60_000);

    // One record over the limit among valid ones: refused and named, the others written.
    const big: EventRecord = {
      v: 1,
      type: 'market',
      exchangeId: 'venue00',
      symbol: `${'X'.repeat(MAX_RECORD_BYTES)}/USDT`,
      base: 'X',
      quote: 'USDT',
      takerFeeRate: 0.001,
      receivedAt: 1_786_000_000_000,
    };
    writer.push([big, ...venues.next(100)]);
    await waitFor('the batch with the oversized record settled', () => writer.queued === 0, 60_000);
    expect(writer.stats.refused).toBe(1);
    expect(
      logger.lines.some(
        (l) => l.message === 'record refused by the log and dropped' && l.fields?.type === 'market',
      ),
    ).toBe(true);

    await broker.kill();
    const during = (async () => {
      for (let i = 0; i < 40; i++) {
        writer.push(venues.next(50));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await during;
    await waitFor('a failed write', () => writer.stats.failures > 0, 60_000);
    await broker.start();
    writer.push(venues.next(1000));
    await waitFor(
      'everything written after the restart',
      () => writer.queued === 0 && !writer.failing,
      120_000,
    ).catch((e: Error) => {
      throw new Error(
        `${e.message}: queued ${writer.queued}, ${JSON.stringify(writer.stats)}\n${logger.lines.map((l) => `${l.message} ${JSON.stringify(l.fields).slice(0, 300)}`).join('\n')}`,
      );
    });
    expect(writer.stats.outages).toBeGreaterThanOrEqual(1);
    await writer.close();
    expect(writer.stats.dropped).toBeGreaterThan(0);
    expect(
      logger.lines.some(
        (l) => l.message === 'log outage outlasted the buffer budget: oldest queued book records dropped',
      ),
    ).toBe(true);
    expect(
      logger.lines.some((l) => l.message === 'log writes resumed; every book is republished as a snapshot'),
    ).toBe(true);

    // A fresh API-side feed from the start of the topics: every book as the venues have it.
    const reader = new KafkaLog({ brokers: [broker.brokers], topicPrefix });
    const feed = createBookFeed({ log: reader, logger: memoryLogger(), fromSnapshots: false });
    try {
      await feed.start();
      const deadline = Date.now() + 60_000;
      while (!(await caughtUp(reader, () => feed.positions()))) {
        if (Date.now() > deadline) throw new Error(`feed not caught up: ${JSON.stringify(feed.positions())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(bookHashes(feed.cache)).toEqual(bookHashes(venues.truth));
      for (const b of feed.cache.allBooks()) expect(b.inSync, `${b.exchangeId}|${b.symbol}`).toBe(true);
    } finally {
      await feed.stop();
      await reader.close();
      await log.close();
    }
  }, 240_000);
});
