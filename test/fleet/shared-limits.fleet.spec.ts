import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@test/support';
import { closeAgents, openStream, type StreamClient } from './support/client';
import type { Fleet } from './support/fleet';
import { address, fleetSteps, STREAM_CAP, STREAM_QUERY, startTestFleet } from './support/fleet-steps';

/**
 * The fleet's shared limits (support/fleet-steps.ts starts the fleet): the rate limit and the
 * stream cap are exact across the two API replicas while Redis answers, and each replica limits
 * alone, with no 5xx, while it does not. Steps share the fleet and run in order. The fleet broken
 * under load (a broker, an ingestor, an API replica killed) is failover.fleet.spec.ts.
 */
let fleet: Fleet;
const { burst, started } = fleetSteps(() => fleet);

beforeAll(async () => {
  fleet = await startTestFleet(8);
});

afterAll(async () => {
  closeAgents();
  await fleet?.stop();
});

describe('the fleet: shared limits', () => {
  it('starts: each venue owned by exactly one live ingestor, quotes through the load balancer', async () => {
    await started();
  });

  it('the rate limit is exact across the two replicas: 5 per window in total, headers on every answer', async () => {
    const out = await burst(address, 12, true);
    const passed = out.filter((r) => r.status !== 429);
    expect(passed).toHaveLength(5);
    expect(out.filter((r) => r.status >= 500)).toEqual([]);
    expect(new Set(out.map((r) => r.headers['x-served-by']))).toEqual(new Set(['api-a', 'api-b']));
    for (const r of out) {
      expect(r.headers['x-ratelimit-limit']).toBe('5');
      expect(r.headers['x-ratelimit-reset']).toBe('1');
    }
    expect(passed.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual([
      0, 1, 2, 3, 4,
    ]);
    for (const r of out.filter((x) => x.status === 429)) {
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
      expect(r.headers['retry-after']).toBe('1');
    }
  });

  it('the stream cap is shared too: at most STREAM_MAX_PER_IP streams per address over both replicas', async () => {
    const from = address();
    const streams: StreamClient[] = [];
    for (let i = 0; i < STREAM_CAP + 1; i++)
      streams.push(await openStream(fleet.haproxy.url, STREAM_QUERY, from));
    const open = streams.filter((s) => s.closed === null);
    expect(open).toHaveLength(STREAM_CAP);
    expect(new Set(open.map((s) => s.servedBy))).toEqual(new Set(['api-a', 'api-b']));
    const refused = streams.filter((s) => s.closed !== null);
    expect(refused.map((s) => s.closed)).toEqual([{ code: 1013, reason: 'connection limit reached' }]);
    expect(refused[0]!.frames[0]).toContain('connection limit reached');
    // One closes: a slot is free again, whichever replica the next one lands on.
    open[0]!.ws.close();
    await new Promise((r) => setTimeout(r, 1100));
    await waitFor(
      'a stream admitted again',
      async () => {
        const again = await openStream(fleet.haproxy.url, STREAM_QUERY, from);
        const ok = again.closed === null;
        again.ws.close();
        if (!ok) await new Promise((r) => setTimeout(r, 1100));
        return ok;
      },
      20_000,
    );
    for (const s of open) s.ws.close();
  });

  it('Redis down: no 5xx, each replica limits alone (counted, logged); exact again once Redis is back', async () => {
    await fleet.redis.kill();
    const out = await burst(address, 14);
    expect(out.filter((r) => r.status === 0 || r.status >= 500)).toEqual([]);
    const passed = out.filter((r) => r.status !== 429).length;
    // Per replica: what one process would admit (5 each), never more.
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(10);
    for (const api of fleet.apis)
      await api.waitForLine(
        'the fail-open warning',
        (l) => String(l.message).includes('Redis is not answering'),
        10_000,
      );
    await fleet.redis.start();
    await waitFor(
      'shared limits again',
      async () => {
        const again = await burst(address, 12, true);
        return again.filter((r) => r.status !== 429).length === 5;
      },
      30_000,
    );
    for (const api of fleet.apis)
      await api.waitForLine(
        'the recovery line',
        (l) => String(l.message).includes('Redis answers again'),
        10_000,
      );
  });
});
