import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { book, market, T0, venue } from '../support/records';
import { waitFor } from '../support/wait-for';
import { askedBetween, startGoodClient } from './support/good-client';
import { moveBooks } from './support/moves';
import { exchange, get } from './support/raw';
import { spawnServer, type SpawnedServer } from './support/server';

// Issue 22: an API whose clock runs behind the ingestor's routed stale books as fresh (age clamped
// at 0, so a book stamped in the future never aged): with the API an hour behind, 248 of 248 books
// counted fresh and /health said ok. Now a book stamped more than 1000 ms ahead of the service
// clock is not fresh, the skew is measured from the records (metrics, status line) and /health is
// not ok while it exceeds the tolerance.
const HOUR = 3_600_000;
const ROUTE = '/route?from=USDT&to=BTC&amountIn=1&bridges=';

async function json(
  port: number,
  path: string,
  localAddress = '127.0.0.2',
): Promise<Record<string, unknown>> {
  const a = await exchange(port, get(path), { localAddress });
  expect(a.status, a.raw.slice(0, 300)).toBeLessThan(500);
  return a.json as Record<string, unknown>;
}

async function skewSeconds(s: SpawnedServer): Promise<number | null> {
  const m = /"message":"metrics listening","port":(\d+)/.exec(s.stdout());
  const res = await fetch(`http://127.0.0.1:${m![1]}/metrics`);
  const family = parsePrometheusTextFormat(await res.text()).find((f) => f.name === 'clock_skew_seconds');
  const sample = family?.metrics[0];
  return sample === undefined ? null : Number(sample.value);
}

describe('an API an hour behind the ingestor (issue 22)', () => {
  let s: SpawnedServer;
  beforeAll(async () => {
    // The fixture world is stamped T0; this API's clock is pinned an hour earlier.
    s = await spawnServer(
      { METRICS_PORT: '0', LOG_SUMMARY_MS: '300', LOG_FORMAT: 'json' },
      { args: ['--now', String(T0 - HOUR)] },
    );
  });
  afterAll(() => s.stop());

  it('no book stamped an hour ahead is fresh: routes are all_books_stale, /symbols empty, /health not ok; the skew is in /metrics and the status line', async () => {
    // The ingestor keeps sending, stamped by its clock (T0), an hour ahead of this API's.
    const moves = moveBooks(s);
    const good = startGoodClient(s.port);
    const from = performance.now();
    const route = await json(s.port, ROUTE);
    expect(route.unroutableReason).toBe('all_books_stale');
    const hops = route.hops as unknown[];
    expect(hops).toEqual([]);
    expect(await json(s.port, '/symbols')).toMatchObject({ symbols: [] });
    const health = await json(s.port, '/health');
    expect(health.status).toBe('no_fresh_books');
    const skew = await skewSeconds(s);
    console.log(
      `clock skew: API an hour behind; route ${String(route.unroutableReason)}, /health ${String(health.status)}, clock_skew_seconds ${skew}`,
    );
    expect(skew).toBeCloseTo(HOUR / 1000, 0);
    await waitFor('a status line naming the skew', () =>
      s
        .stdout()
        .split('\n')
        .some((l) => /clock skew 3600000 ms/.test(l) && /ahead of this API/.test(l)),
    );
    const seen = await good.stop();
    await moves.stop();
    // The well-behaved client is answered all along, and told the truth: not ok.
    expect(askedBetween(seen, from).filter((a) => a.status !== 200)).toEqual([]);
  });
});

describe('one venue stamping an hour ahead of a live API (issue 22)', () => {
  let s: SpawnedServer;
  let moving = true;
  let mover: Promise<void>;
  beforeAll(async () => {
    const now = Date.now();
    s = await spawnServer(
      { METRICS_PORT: '0' },
      {
        args: [],
        records: [
          venue('alpha'),
          venue('beta'),
          market('alpha', 'BTC/USDT', 0.001),
          market('beta', 'BTC/USDT', 0.002),
          book('alpha', 'BTC/USDT', [[99, 1]], [[100, 1]], 1, now),
          // beta's clock is an hour ahead, and it quotes the better price.
          book('beta', 'BTC/USDT', [[89, 2]], [[90, 2]], 1, now + HOUR),
        ],
      },
    );
    // Both keep sending, each stamped by its own clock.
    mover = (async () => {
      for (let seq = 2; moving; seq++) {
        await s.writeBooks([
          book('alpha', 'BTC/USDT', [[99, 1]], [[100, 1]], seq, Date.now()),
          book('beta', 'BTC/USDT', [[89, 2]], [[90, 2]], seq, Date.now() + HOUR),
        ]);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
  });
  afterAll(async () => {
    moving = false;
    await mover;
    await s.stop();
  });

  it('routes only the book stamped by a sane clock; /health degraded while the skew lasts', async () => {
    const route = await json(s.port, ROUTE);
    const hop = (route.hops as { legs: { exchangeId: string }[]; freshVenueCount: number }[])[0]!;
    expect(hop.legs.map((l) => l.exchangeId)).toEqual(['alpha']);
    expect(hop.freshVenueCount).toBe(1);
    await waitFor(
      '/health to say degraded',
      async () => (await json(s.port, '/health')).status === 'degraded',
    );
    expect(await skewSeconds(s)).toBeGreaterThan(HOUR / 1000 - 5);
  });
});
