import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@test/support';
import { startTestServer, type TestServer } from '../api/support/server';

// /docs in headless Chromium, as a reader uses it: the operations are listed, the try-it console
// gets a real answer from this server, the stream console gets real frames, and the page asks
// nothing of anyone else. The server runs at the default rate limit (5 requests a second): the
// page itself costs one request.
const ROOT = resolve(__dirname, '../..');
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer({ rateLimitRps: 5 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('/docs', () => {
  it('lists every operation, answers from the try-it console and the stream console, offline', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.goto(`${s.url}/docs`);
    const summaries = page.locator('.opblock-summary');
    await expect.poll(() => summaries.count(), { timeout: 15_000 }).toBe(18);
    const listed = (await page.locator('.opblock-summary-method').allTextContents()).map(
      (m, i) => `${m} ${i}`,
    );
    expect(listed).toHaveLength(18);
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    for (const path of [
      '/route',
      '/stream/route',
      '/route/explain',
      '/orderbook/{exchange}/{symbol}',
      '/orderbook/{exchange}/{base}/{quote}',
      '/symbols',
      '/exchanges/status',
      '/health',
      '/ready',
      '/keys',
      '/checkpoint',
      '/checkpoint/consistency',
      '/receipts/{requestId}/proof',
      '/openapi.json',
      '/asyncapi.json',
      '/docs',
    ])
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toContain(path);
    // Loading the page cost exactly one request: the page itself.
    expect(requests).toEqual([`GET ${s.url}/docs`]);

    // Try it: GET /route with the pre-filled example (USDT -> BTC, amountIn 1000).
    const op = page.locator('#operations-route-getRoute');
    await op.locator('.opblock-summary').click();
    await op.locator('.try-out__btn').click();
    await op.locator('.execute').click();
    const status = op.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('200');
    const body = await op
      .locator('.live-responses-table tr.response .response-col_description pre')
      .first()
      .textContent();
    expect(JSON.parse(body ?? '')).toMatchObject({ from: 'USDT', to: 'BTC', requestedAmount: 1000 });
    expect(requests.filter((r) => r.startsWith(`GET ${s.url}/route?`))).toHaveLength(1);

    // The stream console beside it: the current route arrives on open.
    await page.locator('#stream').scrollIntoViewIfNeeded();
    await page.locator('#stream-open').click();
    const log = page.locator('#stream-log');
    await expect.poll(() => log.textContent(), { timeout: 15_000 }).toMatch(/USDT->BTC in [0-9.]+ out/);
    // The console asks for the v2 envelope by default: the first quote is seq 1, tick 1, cause open.
    expect(await log.textContent()).toMatch(/seq 1 tick 1 skipped 0 cause open valid until \S+: USDT->BTC/);
    await page.locator('#stream-close').click();
    await expect.poll(() => log.textContent(), { timeout: 15_000 }).toContain('closed 1000');

    mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'docs-stream.png') });
    await page.locator('header.top').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'docs-page.png') });
    await op.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ROOT, 'test-artifacts', 'docs-try-it.png') });
    // Nothing was fetched from anywhere but this server.
    expect(requests.filter((r) => !r.includes(s.url) && !r.includes(s.wsUrl))).toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);
});
