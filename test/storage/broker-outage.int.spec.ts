import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventRecord } from '@app/events';
import { createBookFeed } from '@app/live-feed';
import { KafkaLog } from '@app/event-log';
import { bookRecords, listingRecords, type StreamSpec } from '@test/support';
import { ownedBroker, type OwnedBroker } from '../kafka/broker';
import { bookHashes, foldRecords, memoryLogger } from '../kafka/book-hashes';
import { caughtUp } from '../kafka/feed-scenarios';
import { startApp, type App } from './support/processes';

// Issue 15: the built ingestor process (replaying a recording into Kafka) through a 60 s broker
// outage. Before the fix it died about 14 s in (an unhandled KafkaJSNonRetriableError). It must
// stay up, pause, resume when the broker is back, and leave every record in the log.
const SPEC: StreamSpec = {
  venues: 3,
  symbolsPerVenue: 4,
  bookRecords: 2400,
  levels: 6,
  snapshotEvery: 200,
  startAt: 1_786_000_000_000,
  stepMs: 20, // 48 s of recording
};
const OUTAGE_MS = 60_000;

let broker: OwnedBroker;
const dirs: string[] = [];
const apps: App[] = [];
beforeAll(async () => {
  broker = await ownedBroker('storage-outage', 4);
});
afterAll(async () => {
  for (const a of apps) if (a.alive()) a.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await broker?.dispose();
});

describe('the ingestor process through a 60 s broker outage', () => {
  it('stays up, waits, resumes, and every recorded record reaches the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-outage-'));
    dirs.push(dir);
    const records: EventRecord[] = [...listingRecords(SPEC), ...bookRecords(SPEC)];
    const file = join(dir, 'recording.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const topicPrefix = `t-${randomUUID().slice(0, 8)}`;
    const ingestor = startApp('apps/ingestor/src/main.js', ['--replay', file, '--speed', '2'], {
      KAFKA_BROKERS: broker.brokers,
      TOPIC_PREFIX: topicPrefix,
      DATA_DIR: dir,
    });
    apps.push(ingestor);
    const reader = new KafkaLog({ brokers: [broker.brokers], topicPrefix, onProblem: () => undefined });
    try {
      // Some records in, then the broker goes away for a minute.
      for (let i = 0; i < 300; i++) {
        const written = (await reader.highWatermarks('books').catch(() => [0])).reduce((a, b) => a + b, 0);
        if (written > 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await broker.stop();
      await ingestor.waitFor(/log write failed; the replay waits and retries/, 60_000);
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      expect(ingestor.alive()).toBe(true);
      await broker.start();
      // The process logs JSON lines (pino): the summary line's fields in any order.
      const line = await ingestor.waitFor(/^.*"message":"replay finished".*$/m, 120_000);
      expect((JSON.parse(line[0]) as { records: number }).records).toBe(records.length);

      const feed = createBookFeed({ log: reader, logger: memoryLogger(), fromSnapshots: false });
      await feed.start();
      for (let i = 0; i < 200 && !(await caughtUp(reader, () => feed.positions())); i++)
        await new Promise((r) => setTimeout(r, 100));
      // Every record once in the books' state (a request repeated after the outage is ignored by sequence).
      expect(bookHashes(feed.cache)).toEqual(bookHashes(foldRecords(records)));
      for (const b of feed.cache.allBooks()) expect(b.inSync, `${b.exchangeId}|${b.symbol}`).toBe(true);
      await feed.stop();

      ingestor.child.kill('SIGTERM');
      expect((await ingestor.exited).code).toBe(0);
    } finally {
      await reader.close();
    }
  }, 300_000);
});
