import { mkdirSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, launchChromium, T0, waitFor } from '@test/support';
import { startTestServer, type TestServer } from '../api/support/server';

// /explorer in headless Chromium over the fixture world (test/api/support/world.ts, clock at T0).
// Sell 2.5 BTC for USDT, split_optimal: alpha bids 99 x 1, 98 x 1 (fee 0.001), beta 97 x 2 (fee
// 0.002); ranked 98.901, 97.902, 96.806, so alpha gives 2 and beta 0.5: (99 + 98) * 0.999 +
// 48.5 * 0.998 = 245.206 USDT. Then alpha's bids move to 120 x 3 and the stream pushes the new
// route: all 2.5 on alpha, 300 * 0.999 = 299.7.
const ROOT = resolve(__dirname, '../..');
let s: TestServer;
let browser: Browser;
/** Every socket the server upgraded, so the test can drop the page's stream as a dead network would. */
const upgraded: Duplex[] = [];

beforeAll(async () => {
  s = await startTestServer();
  s.server.app.getHttpServer().on('upgrade', (_req: unknown, socket: Duplex) => upgraded.push(socket));
  browser = await launchChromium();
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('/explorer', () => {
  it('draws the route, the depth consumed, the proof and costs, and follows the stream across a dropped connection', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.goto(`${s.url}/explorer`);
    await page.fill('input[name=from]', 'BTC');
    await page.fill('input[name=to]', 'USDT');
    await page.fill('input[name=amountIn]', '2.5');
    await page.selectOption('select[name=strategy]', 'split_optimal');
    await page.click('button[type=submit]');
    /** [venue, size] of every leg node of the diagram, in order. */
    const legsShown = async (): Promise<[string | null, string | null][]> => {
      const rows = page.locator('#diagram .leg');
      const out: [string | null, string | null][] = [];
      for (let i = 0; i < (await rows.count()); i++)
        out.push([
          await rows.nth(i).getAttribute('data-exchange'),
          await rows.nth(i).getAttribute('data-amount'),
        ]);
      return out;
    };
    await page.waitForSelector('body[data-ready=true]', { timeout: 15_000 });

    // The diagram: one node per hop, one per leg, with the sizes the route gives.
    expect(await page.locator('#diagram .hop').count()).toBe(1);
    expect(await page.locator('#diagram .hop').getAttribute('data-pair')).toBe('BTC/USDT');
    expect(await legsShown()).toEqual([
      ['alpha', '2'],
      ['beta', '0.5'],
    ]);
    expect(await page.locator('#diagram').textContent()).toContain('245.206 USDT');

    // The depth chart: 4 BTC of bids on the routed venues, 2.5 of them consumed (shaded dataset).
    const canvas = page.locator('#depth');
    expect(await canvas.getAttribute('data-total-base')).toBe('4');
    expect(await canvas.getAttribute('data-consumed-base')).toBe('2.5');
    // The chart's own data (window.explorer.chart is the Chart.js instance): the shaded dataset tops at 2.5.
    const consumedTop = await page.evaluate<number>(
      'Math.max(...window.explorer.chart.data.datasets[1].data.map((p) => p.y))',
    );
    expect(consumedTop).toBeCloseTo(2.5, 12);

    // The proof and the costs beside them.
    expect(await page.locator('#proof').textContent()).toContain('decision: candidate 0 (only_eligible)');
    expect(await page.locator('#proof .cand.chosen').textContent()).toContain(
      'alpha: 1@99, 1@98 = 2 for 197',
    );
    expect(await page.locator('#costs tr[data-row="strategy best_single"] td').nth(1).textContent()).not.toBe(
      '',
    );
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'explorer.png'), fullPage: true });

    // A live update: the opening frame, then the one after alpha's book moves.
    // Polled from here: a string predicate polled in the page would be an eval, which the page's CSP refuses.
    await waitFor(
      'the opening frame',
      async () => Number(await page.locator('#live').getAttribute('data-updates')) >= 1,
      15_000,
    );
    await s.write([book('alpha', 'BTC/USDT', [[120, 3]], [[121, 1]], 2, T0)]);
    await waitFor(
      'the frame after the move',
      async () => ((await page.locator('#live').textContent()) ?? '').includes('299.7 USDT'),
      15_000,
    );
    expect(await legsShown()).toEqual([['alpha', '2.5']]);
    // The v2 envelope's seq, skipped states and validUntil are shown with the frame.
    const live = page.locator('#live');
    expect(await live.getAttribute('data-seq')).toBe(String(await live.getAttribute('data-updates')));
    expect(Number(await live.getAttribute('data-skipped'))).toBeGreaterThanOrEqual(0);
    expect(Number(await live.getAttribute('data-valid-until'))).toBeGreaterThan(T0);
    expect(await live.textContent()).toMatch(/\(seq \d+, \d+ skipped, valid until \d{4}-\d\d-\d\dT/);
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'explorer-live.png'), fullPage: true });

    // The server drops the connection (its TCP socket destroyed, no close frame): the page's client
    // reconnects, resumes the closed stream from its last seq, and follows the new stream.
    const conn = page.locator('#connection');
    expect(await conn.getAttribute('data-connections')).toBe('1');
    expect(await conn.textContent()).toMatch(/: subscribed$/);
    const firstStream = await live.getAttribute('data-stream-id');
    expect(upgraded.length).toBe(1);
    upgraded[0]!.destroy();
    await waitFor(
      'the reconnect and its resume verdict',
      async () => ((await conn.getAttribute('data-resume')) ?? '') !== '',
      15_000,
    );
    expect(await conn.getAttribute('data-connections')).toBe('2');
    expect(JSON.parse((await conn.getAttribute('data-resume'))!)).toEqual({ resumed: true, missedFrames: 0 });
    expect(await conn.textContent()).toMatch(/^stream [0-9a-f-]{36}: resumed, 0 missed$/);
    await s.write([book('alpha', 'BTC/USDT', [[110, 3]], [[111, 1]], 3, T0)]);
    await waitFor(
      'the frame after the reconnect',
      async () => ((await live.textContent()) ?? '').includes('274.725 USDT'),
      15_000,
    );
    expect(await live.getAttribute('data-stream-id')).not.toBe(firstStream);
    expect(await conn.textContent()).toContain(String(await live.getAttribute('data-stream-id')));
    expect(Number(await live.getAttribute('data-seq'))).toBeGreaterThanOrEqual(1);
    expect(Number(await live.getAttribute('data-valid-until'))).toBeGreaterThan(T0);

    // Offline: nothing but this server was asked for anything.
    expect(requests.filter((u) => !u.startsWith(s.url) && !u.startsWith(s.wsUrl))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
