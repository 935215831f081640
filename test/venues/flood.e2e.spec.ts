import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFloodVenue, type FloodMarket } from '@app/synth';
import { tempDir, waitFor } from '@test/support';
import { START_MAIN, startService } from '../api/support/service-process';
import { boundFor } from '../hostile/support/good-client';
import { marketsOption, spotMarket } from './offline-markets';

// Issue: one venue could slow the API of `npm start`. A bitfinex-protocol venue changing one book
// 5,000 times a second made GET /route take up to 1.2 s in the same process: ccxt handles the
// frames a socket read brings in one go, and on the thread that answered requests a burst of
// them held every answer behind it. The ingestor now runs on a thread of its own. Here: 5,000
// changes a second of BTC/USD, each with its checksum frame, arriving in one burst a second for
// 10 s (the old process: /route p99 86 ms on a quiet machine, 200-230 ms at load 5).
const RATE = 5_000;
const FLOOD_MS = 10_000;
const CONTROL_MS = 5_000;
const ROUTE = '/route?from=USD&to=BTC&amountIn=1000';
const BOOK = '/orderbook/bitfinex/BTC%2FUSD';
const MARKETS: readonly FloodMarket[] = [
  { id: 'tBTCUSD', base: 'BTC', quote: 'USD', mid: 65_000 },
  { id: 'tETHUSD', base: 'ETH', quote: 'USD', mid: 3_000 },
  { id: 'tETHBTC', base: 'ETH', quote: 'BTC', mid: 0.046 },
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One GET on a new connection: status, body and how long it took (connect to last byte). */
function get(url: string, path: string): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, body: string): void =>
      resolve({ status, body, ms: performance.now() - t0 });
    const req = request(url + path, { agent: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done(res.statusCode ?? 0, body));
      res.on('error', () => done(0, body));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0, ''));
    req.end();
  });
}

/** GET /route one request at a time, 10 ms apart, for `windowMs`: every answer's status and time. */
async function askFor(url: string, windowMs: number): Promise<{ status: number; ms: number }[]> {
  const out: { status: number; ms: number }[] = [];
  for (const end = performance.now() + windowMs; performance.now() < end;) {
    const { status, ms } = await get(url, ROUTE);
    out.push({ status, ms });
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

const p99 = (asked: readonly { ms: number }[]): number => {
  const sorted = asked.map((a) => a.ms).sort((a, b) => a - b);
  return sorted[Math.ceil(0.99 * sorted.length) - 1] ?? NaN;
};

interface Served {
  readonly sequence: number;
  readonly bids: { price: number; amount: number }[];
  readonly asks: { price: number; amount: number }[];
}

describe('one venue flooding one book (npm start: ingestor and API in one process)', () => {
  it(`${RATE} changes a second of one book for ${FLOOD_MS / 1000} s: GET /route p99 <50 ms (or 3x the same process's without the flood), every change ingested, the served book the venue's`, async () => {
    const venue = await startFloodVenue(MARKETS);
    cleanups.push(() => venue.close());
    const dir = tempDir('flood');
    cleanups.push(() => dir.remove());
    const file = join(dir.path, 'venues.json');
    const markets = marketsOption(MARKETS.map((m) => spotMarket(m.id, m.base, m.quote, 0.002)));
    const ccxt = { urls: { api: { ws: { public: `${venue.ws}/ws/2` } } }, markets };
    // XRP/USD is not listed: the ingestor thread's warning must reach the process's output.
    const symbols = [...MARKETS.map((m) => `${m.base}/${m.quote}`), 'XRP/USD'];
    writeFileSync(file, JSON.stringify({ venues: { bitfinex: { symbols, ccxt } } }));
    const service = await startService(['--port', '0', '--host', '127.0.0.1'], {
      DATA_DIR: join(dir.path, 'data'),
      VENUES_CONFIG: file,
      METRICS_PORT: '0',
      RATE_LIMIT_RPS: '1000000',
    });
    cleanups.push(async () => void (await service.stop()));
    const metrics = String(
      (await service.waitForLine('metrics', (l) => l.message === 'metrics listening')).url,
    );
    await waitFor('a route through the venue', async () => (await get(service.url, ROUTE)).status === 200);
    venue.prepare('tBTCUSD', (RATE * (FLOOD_MS + CONTROL_MS)) / 1000 + 2_000);

    const control = await askFor(service.url, CONTROL_MS);
    const before = JSON.parse((await get(service.url, BOOK)).body) as Served;
    const flood = venue.flood('tBTCUSD', RATE, FLOOD_MS, 1_000);
    const during = await askFor(service.url, FLOOD_MS);
    expect(await flood).toBe((RATE * FLOOD_MS) / 1000);

    // Nothing was dropped to keep up: once caught up, the served book is the venue's, level for
    // level (a lost change, or a checksum the ingestor's copy failed, would leave it different).
    let served = before;
    await waitFor(
      'the served book to equal the venue book',
      async () => {
        const want = venue.books().tBTCUSD!;
        served = JSON.parse((await get(service.url, BOOK)).body) as Served;
        const same = (got: Served['bids'], levels: [number, number, number][]): boolean =>
          got.length === levels.length &&
          got.every((l, i) => l.price === levels[i]![0] && l.amount === Math.abs(levels[i]![2]));
        return same(served.bids, want.bids) && same(served.asks, want.asks);
      },
      20_000,
    );
    const text = await (await fetch(metrics)).text();
    const events = (event: string): number =>
      Number(
        new RegExp(`ingestor_venue_events_total\\{venue="bitfinex",event="${event}"\\} (\\d+)`).exec(
          text,
        )?.[1],
      );

    const bound = boundFor(50, p99(control));
    console.log(
      `flood: /route p99 ${p99(during).toFixed(1)} ms in the flood (${during.length} requests), ${p99(control).toFixed(1)} ms without (${control.length}); bound ${bound.toFixed(0)} ms; ${served.sequence - before.sequence} book records for ${RATE * (FLOOD_MS / 1000)} changes`,
    );
    expect([...control, ...during].every((a) => a.status === 200)).toBe(true);
    expect(p99(during)).toBeLessThan(bound);
    // Every burst became at least one record; ccxt's own checksum of every change passed.
    expect(served.sequence - before.sequence).toBeGreaterThanOrEqual(FLOOD_MS / 1000);
    expect(events('checksumFailures')).toBe(0);
    expect(events('gaps')).toBe(0);
    expect(events('badBooks')).toBe(0);
    expect(service.lines()).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        component: 'Ingestor',
        message: 'configured symbols not listed by the venue; skipped',
        exchangeId: 'bitfinex',
        symbols: ['XRP/USD'],
      }),
    );
  }, 60_000);

  it('a bad VENUES_CONFIG ends it before it listens, naming every problem', async () => {
    const dir = tempDir('flood-config');
    cleanups.push(() => dir.remove());
    const file = join(dir.path, 'venues.json');
    writeFileSync(file, JSON.stringify({ venues: { nosuchvenue: {}, bitfinex: { watchLimit: 0 } } }));
    const child = spawn(process.execPath, [START_MAIN, '--port', '0'], {
      env: { ...process.env, DATA_DIR: join(dir.path, 'data'), VENUES_CONFIG: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(out).not.toContain('"listening"');
    expect(out).toContain(`invalid venues config ${file}`);
    expect(out).toContain("'nosuchvenue' is not a ccxt pro exchange with watchOrderBook");
    expect(out).toContain('venues.bitfinex.watchLimit: must be a positive integer');
  });
});
