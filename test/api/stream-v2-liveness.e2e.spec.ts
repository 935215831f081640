/* eslint-disable @typescript-eslint/no-unsafe-argument -- messages are checked by the assertions */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logSink, type AppendEntry, type EventLog } from '@app/event-log';
import { T0, waitFor } from '@test/support';
import { describe, expect, it } from 'vitest';
import { startApiServer } from '../../apps/api/src/bootstrap';
import { Clock } from '../../apps/api/src/clock';
import { closeHost, openFeed, waitCaughtUp } from '../../apps/api/src/compose';
import { book } from '../support/records';
import { sleep } from './support/http';
import { BASE_CONFIG, startTestServer } from './support/server';
import { ofType, openV2 } from './support/stream-v2';
import { world } from './support/world';

// What a v2 client is told when nothing moves (staleness) and when the journal refuses frames.
const ROUTE = { from: 'USDT', to: 'BTC', amountIn: 100.1, bridges: '' };
const QUIET = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** The service clock running at wall speed from T0. */
class RunningClock extends Clock {
  private readonly start = performance.now();
  now(): number {
    return T0 + Math.round(performance.now() - this.start);
  }
}

describe('staleness', () => {
  it('a quiet market yields a push with cause staleness at validUntil, and only one', async () => {
    const staleBookMs = 700;
    const s = await startTestServer(
      { routing: { ...BASE_CONFIG.routing, staleBookMs } },
      undefined,
      new RunningClock(),
    );
    try {
      const c = await openV2(s.wsUrl);
      c.send({ type: 'subscribe', id: 'q', route: ROUTE });
      const open = await c.take(ofType('quote', 'q'));
      expect(open.validUntil).toBeGreaterThan(open.result.calculatedAt);
      const stale = await c.take(ofType('quote', 'q'), staleBookMs + 2000);
      expect(stale).toMatchObject({ seq: 2, ticksSkipped: 0, cause: { kind: 'staleness', markets: [] } });
      expect(stale.result.calculatedAt).toBeGreaterThanOrEqual(open.validUntil);
      await sleep(staleBookMs);
      // Its books are stale now: no validUntil to wait for, so no further push.
      expect(c.count(ofType('quote', 'q'))).toBe(2);
      c.ws.close();
      await c.closed;
    } finally {
      await s.close();
    }
  });
});

describe('the journal refusing appends', () => {
  it('a v2 subscription gets journal_unavailable (and the next quote counts the withheld one); a v1 stream closes 1013', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stream-journal-'));
    const host = await openFeed({ kafkaBrokers: null, dataDir }, QUIET);
    await logSink(host.log).write(world());
    await waitCaughtUp(host);
    const inner = host.log;
    let down = false;
    const flaky: EventLog = Object.assign(Object.create(inner) as EventLog, {
      append: (topic: string, entries: readonly AppendEntry[]) =>
        topic === 'stream' && down
          ? Promise.reject(new Error('disk full'))
          : inner.append(topic as 'stream', entries),
    });
    host.server = await startApiServer({
      config: { ...BASE_CONFIG, journalQueueBytes: 1 },
      feed: host.feed,
      log: flaky,
      clock: new RunningClock(),
      logger: false,
    });
    const server = host.server;
    const wsUrl = server.url.replace('http', 'ws');
    let seq = 10;
    const move = async (ask: number) => {
      await logSink(host.log).write([book('alpha', 'BTC/USDT', [[ask - 1, 1]], [[ask, 5]], ++seq)]);
      await waitCaughtUp(host);
    };
    try {
      const c = await openV2(wsUrl);
      c.send({ type: 'subscribe', id: 'j', route: ROUTE });
      expect(await c.take(ofType('quote', 'j'))).toMatchObject({ seq: 1 });
      const v1 = await openV2(wsUrl, [], '/stream/route?from=USDT&to=BTC&amountIn=100.1&bridges=');
      await v1.take(() => true);
      down = true;
      await move(50_500);
      // This frame went out (the log had not failed yet); its record is the one that fails.
      expect(await c.take(ofType('quote', 'j'))).toMatchObject({ seq: 2, ticksSkipped: 0 });
      await waitFor('the failed append', () => server.journal.failing);
      await sleep(120);
      await move(50_600);
      expect(await c.take(ofType('error', 'j'))).toMatchObject({
        op: 'subscribe',
        code: 'journal_unavailable',
        status: 503,
      });
      expect(await v1.take((m) => m.code === 1013)).toMatchObject({ reason: 'quote journal unavailable' });
      expect((await v1.closed).code).toBe(1013);
      expect(server.streamStats().framesWithheldTotal).toBeGreaterThanOrEqual(2);
      down = false;
      await waitFor('the retried append', () => !server.journal.failing);
      await sleep(120);
      await move(50_700);
      const next = await c.take(ofType('quote', 'j'));
      // seq stays contiguous; the withheld frame shows as a skipped tick.
      expect(next.seq).toBe(3);
      expect(next.ticksSkipped).toBeGreaterThanOrEqual(1);
      c.ws.close();
      await c.closed;
    } finally {
      await closeHost(host);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
