import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logSink, type AppendEntry, type EventLog } from '@app/event-log';
import { book, market, T0, venue, waitFor } from '@test/support';
import { afterAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { Clock } from '../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp } from '../../apps/api/src/compose';
import { call } from './support/http';
import { BASE_CONFIG, startTestServer, type TestServer } from './support/server';
import { world } from './support/world';

// /health's status says whether the service can quote (docs/api.md "GET /health").
class MovableClock extends Clock {
  constructor(public at: number) {
    super();
  }
  now(): number {
    return this.at;
  }
}

const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const health = async (url: string): Promise<unknown> => (await call(url, '/health')).body;

describe('GET /health status', () => {
  const clock = new MovableClock(T0);
  let s: TestServer;
  afterAll(async () => {
    await s?.close();
  });

  it('ok with fresh books; no_fresh_books once every book ages past STALE_BOOK_MS', async () => {
    s = await startTestServer({}, world(), clock);
    const r = await call(s.url, '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', uptimeSec: expect.any(Number) });
    // STALE_BOOK_MS is 10,000: one millisecond past it, nothing can be quoted.
    clock.at = T0 + 10_001;
    expect(await health(s.url)).toMatchObject({ status: 'no_fresh_books' });
    expect((await call(s.url, '/symbols')).body).toEqual({ symbols: [] });
    const route = await call(s.url, '/route?from=USDT&to=BTC&amountIn=100&bridges=');
    expect(route.body.unroutableReason).toBe('all_books_stale');
    // A status the metrics and the console agree with.
    expect(s.server.status.report()).toMatchObject({
      status: 'no_fresh_books',
      reasons: ['every book is stale or out of sync'],
    });
  });

  it('degraded while fewer than half the known venues have a fresh book, ok again once most do', async () => {
    const at = clock.at;
    const fresh = (id: string) => [
      venue(id),
      market(id, 'BTC/USDT'),
      book(id, 'BTC/USDT', [[99, 1]], [[100, 1]], 1, at),
    ];
    // Five venues known (alpha and beta stale), one fresh: 1 of 5.
    await s.write([...fresh('gamma'), venue('delta'), venue('epsilon')]);
    expect(await health(s.url)).toMatchObject({ status: 'degraded' });
    expect(s.server.status.report().reasons).toEqual(['only 1 of 5 venues have a fresh book']);
    await s.write([...fresh('delta'), ...fresh('epsilon')]);
    expect(await health(s.url)).toMatchObject({ status: 'ok' });
  });
});

describe('GET /health when the quote journal cannot append', () => {
  it('degraded while appends fail (records wait in memory), ok once they succeed again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'health-journal-'));
    const host = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
    await logSink(host.log).write(world());
    await waitCaughtUp(host);
    const inner = host.log;
    let down = true;
    const flaky: EventLog = Object.assign(Object.create(inner) as EventLog, {
      append: (topic: 'quotes', entries: readonly AppendEntry[]) =>
        topic === 'quotes' && down ? Promise.reject(new Error('disk full')) : inner.append(topic, entries),
    });
    host.server = await startApiServer({
      config: BASE_CONFIG,
      feed: host.feed,
      log: flaky,
      clock: new MovableClock(T0),
      logger: false,
    });
    const url = host.server.url;
    try {
      expect(await health(url)).toMatchObject({ status: 'ok' });
      // Batched mode serves the quote; its record waits for the log.
      expect((await call(url, '/route?from=USDT&to=BTC&amountIn=100&bridges=')).status).toBe(200);
      await waitFor('the failed append', () => host.server!.journal.failing);
      expect(await health(url)).toMatchObject({ status: 'degraded' });
      expect(host.server.status.report().reasons).toEqual([
        'quote journal appends are failing (1 records waiting)',
      ]);
      down = false;
      await waitFor('the retried append', () => !host.server!.journal.failing);
      expect(await health(url)).toMatchObject({ status: 'ok' });
      expect(host.server.journal.queued).toBe(0);
    } finally {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
