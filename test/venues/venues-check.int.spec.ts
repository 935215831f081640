import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@test/support';
import { CAPTURES_PRESENT } from './captures';
import { FAST_REDIAL } from './ingest-harness';
import { startMockVenue, type MockVenue } from './mock-server';
import { marketsOption, spotMarket } from './offline-markets';
import { readPoloniexBooks, startPoloniexMock } from './poloniex-mock';

const BIN = resolve(__dirname, '../../bin/route-service.mjs');

/** `route-service <args>` as a user types it, in its own process (the mocks keep answering meanwhile). */
function cli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, KAFKA_BROKERS: undefined, DATA_DIR: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

/** A port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

interface JsonVenue {
  exchangeId: string;
  verdict: 'ok' | 'warn' | 'fail';
  reason: string;
  markets: string[];
  booksLive: string[];
  firstBookMs: number | null;
  depth: { bids: number; asks: number } | null;
  updatesPerSecond: number;
  errors: string[];
}

describe.skipIf(!CAPTURES_PRESENT)('route-service venues check against local venues', () => {
  const dir = tempDir('venues-check');
  let good: MockVenue;
  let silent: MockVenue;
  let config: string;

  beforeAll(async () => {
    good = await startPoloniexMock(readPoloniexBooks());
    // Accepts the socket and every subscription, then never says a word.
    silent = await startMockVenue({ onMessage: () => undefined });
    const refused = await closedPort();
    config = join(dir.path, 'venues.json');
    const ids = { BTC_USDT: 'BTC', SOL_USDT: 'SOL' };
    writeFileSync(
      config,
      JSON.stringify({
        venues: {
          poloniex: {
            ccxt: {
              urls: { api: { ws: { public: `${good.ws}/ws/public` } } },
              markets: marketsOption(Object.entries(ids).map(([id, base]) => spotMarket(id, base, 'USDT'))),
              options: { ws: FAST_REDIAL },
            },
          },
          kraken: {
            ccxt: {
              urls: { api: { ws: { publicV2: `${silent.ws}/v2` } } },
              markets: marketsOption([spotMarket('XBTUSD', 'BTC', 'USD')]),
              options: { ws: FAST_REDIAL },
            },
          },
          bitfinex: {
            ccxt: {
              urls: { api: { ws: { public: `ws://127.0.0.1:${refused}/ws/2` } } },
              markets: marketsOption([spotMarket('tBTCUSD', 'BTC', 'USD')]),
              options: { ws: FAST_REDIAL },
            },
          },
        },
      }),
    );
  });
  afterAll(async () => {
    await good.close();
    await silent.close();
    dir.remove();
  });

  it('reports each venue and fails, in the venue’s own words, when one refuses or goes silent', async () => {
    const r = await cli(['venues', 'check', '--seconds', '3'], { VENUES_CONFIG: config });
    expect(r.code, r.err).toBe(1);
    const rows = new Map(
      r.out
        .split('\n')
        .filter((l) => /^\w+ +\d/.test(l))
        .map((l) => [l.split(/\s+/)[0], l] as const),
    );
    // poloniex: both markets, a book each, within the window, and a verdict of ok.
    expect(rows.get('poloniex')).toMatch(/^poloniex +2 +2 +\d+\.\d s +\d+\/\d+ +\d+\.\d +0 +0 +0 +ok$/);
    expect(rows.get('kraken')).toMatch(/FAIL {2}no book in \d+(\.\d)? s$/);
    expect(rows.get('bitfinex')).toMatch(/FAIL {2}no book in \d+(\.\d)? s$/);
    // The refusal as ccxt words it, under its venue.
    expect(r.out).toMatch(/ {4}bitfinex said: .*(ECONNREFUSED|connect)/);
    expect(r.out).toMatch(/checked 3 venue\(s\) for \d+(\.\d)? s: 1 ok, 0 warn, 2 fail/);
    expect(r.err).toMatch(/checking 3 venue\(s\) from VENUES_CONFIG .*venues\.json for 3 s/);
  });

  it('--venues picks among them; --json gives the same figures to scripts; exit 0 when every selected venue is up', async () => {
    const r = await cli(['venues', 'check', '--venues', 'poloniex', '--seconds', '3', '--json'], {
      VENUES_CONFIG: config,
    });
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { seconds: number; venues: JsonVenue[] };
    expect(report.venues.map((v) => v.exchangeId)).toEqual(['poloniex']);
    const [v] = report.venues;
    expect(v).toMatchObject({ verdict: 'ok', markets: ['BTC/USDT', 'SOL/USDT'], errors: [] });
    expect([...v!.booksLive].sort()).toEqual(['BTC/USDT', 'SOL/USDT']);
    expect(v!.firstBookMs).toBeGreaterThan(0);
    expect(v!.firstBookMs).toBeLessThan(report.seconds * 1000);
    // book_lv2 is 20 levels a side in the capture's snapshots.
    expect(v!.depth).toEqual({ bids: 20, asks: 20 });
    expect(v!.updatesPerSecond).toBeGreaterThan(0);

    const help = await cli(['venues', 'check', '--help'], {});
    expect(help.code).toBe(0);
    for (const text of [
      '--venues <ids>',
      '--seconds <n>',
      '(default: 30)',
      '--json',
      'VENUES_CONFIG',
      'Exit status',
    ])
      expect(help.out).toContain(text);

    const unknown = await cli(['venues', 'check', '--venues', 'binance', '--seconds', '1'], {
      VENUES_CONFIG: config,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/not in VENUES_CONFIG: binance \(it lists poloniex, kraken, bitfinex\)/);
  });
});
