import { randomUUID } from 'node:crypto';
import { KafkaLog } from '@app/event-log';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeHost, type ApiHost } from '../../apps/api/src/compose';
import { createBookFeed } from '@app/live-feed';
import { findQuote } from '@app/audit';
import { runReplayCli } from './support/run-replay';
import { replayQuote } from '@app/audit';
import { testBrokers } from '../kafka/broker';
import { journalEntries } from './support/journal-entries';
import { MirrorLog } from './support/mirror-log';
import { scenarioRecords, serveScenario, type Served } from './support/journal-scenario';

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const PARTITIONS = { books: 4, venues: 2, quotes: 2 };

// The same journey as journal-e2e on a real Kafka broker: the API folds and journals through Kafka,
// and every requestId is reproduced from what Kafka holds.
describe('quote journal end to end on Kafka', () => {
  const topicPrefix = `jr-${randomUUID().slice(0, 8)}`;
  let brokers: string[];
  let served: Map<string, Served>;
  let mirror: MirrorLog;

  const kafka = (): KafkaLog =>
    new KafkaLog({ brokers, topicPrefix, partitions: PARTITIONS, clientId: 'journal-test' });

  beforeAll(async () => {
    brokers = (await testBrokers()).split(',');
    const log = kafka();
    const feed = createBookFeed({ log, logger: QUIET });
    await feed.start();
    const host: ApiHost = { log, feed, server: null };
    try {
      // Fewer asOf instants than on the embedded log: each costs a few consumer joins on Kafka.
      ({ served } = await serveScenario(host, scenarioRecords(30_000), 6, [0.5]));
    } finally {
      await closeHost(host);
    }
    const reader = kafka();
    try {
      mirror = await MirrorLog.of(reader, ['books', 'venues', 'quotes', 'stream']);
    } finally {
      await reader.close();
    }
  }, 90_000);

  it('serves a few hundred results of every kind and journals each one', async () => {
    const all = [...served.values()];
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter((s) => s.via === 'stream').length).toBeGreaterThan(30);
    expect(all.filter((s) => s.asOf !== null).length).toBeGreaterThanOrEqual(18);
    const ids = new Set((await journalEntries(mirror)).map((e) => e.requestId));
    for (const requestId of served.keys()) expect(ids.has(requestId), requestId).toBe(true);
  });

  it('replays every requestId byte for byte from the Kafka topics', async () => {
    for (const [requestId, s] of served) {
      const found = await findQuote(mirror, requestId);
      const replay = await replayQuote(mirror, found!.record);
      expect(replay.body, `${s.via} ${requestId}`).toBe(s.body);
      expect(replay.identical).toBe(true);
    }
  });

  it('the quote command reproduces an asOf quote, a POST, a 404 and a stream frame reading Kafka itself', async () => {
    const pick = (f: (s: Served) => boolean): [string, Served] => [...served].find(([, s]) => f(s))!;
    const chosen = [
      pick((s) => s.asOf !== null),
      pick((s) => s.via === 'post' && s.asOf === null),
      pick((s) => s.status === 404),
      pick((s) => s.via === 'stream'),
    ];
    for (const [requestId, s] of chosen) {
      const { code, out, err } = await runReplayCli(['quote', requestId], {
        env: { KAFKA_BROKERS: brokers.join(',') },
        openLog: () => kafka(),
      });
      expect(err.join('\n')).toMatch(/^identical: sha256 [0-9a-f]{64}/);
      expect(code).toBe(0);
      expect(out).toBe(`${s.body}\n`);
    }
  }, 30_000);
});
