import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, waitFor } from '@test/support';
import { startTestServer, type TestServer } from '../api/support/server';

// The HTML answers carry a Content-Security-Policy (and the other security headers) under which
// the pages still work in Chromium, while a script injected into them is refused. (docs-page and
// explorer-page specs drive every feature of the two pages under the same headers.)
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** Open `path`, recording CSP violations and console errors from the first script on. */
async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(`
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.violations.push(e.effectiveDirective + ' ' + e.blockedURI));
  `);
  const answer = await page.goto(`${s.url}${path}`);
  const headers = answer!.headers();
  expect(headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'sha256-/);
  expect(headers['content-security-policy']).not.toContain('unsafe');
  expect(headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  });
  return { page, problems };
}

/** An inline script added to the page does not run, and the browser reports the violation. */
async function injectedScriptRefused(page: Page): Promise<void> {
  const ran = await page.evaluate(`(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.injected = true';
    document.body.appendChild(s);
    await new Promise((r) => setTimeout(r, 100));
    return window.injected === true;
  })()`);
  expect(ran).toBe(false);
  expect(await page.evaluate('window.violations')).toContainEqual('script-src-elem inline');
}

describe('security headers on the HTML pages', () => {
  it('/docs renders every operation and answers a try-it request under its CSP; an injected script is refused', async () => {
    const { page, problems } = await open('/docs');
    await expect
      .poll(() => page.locator('.opblock-summary').count(), { timeout: 15_000 })
      .toBeGreaterThan(10);
    const ready = page.locator('#operations-meta-getReady');
    await ready.locator('.opblock-summary').click();
    await ready.locator('.try-out__btn').click();
    await ready.locator('.execute').click();
    await expect
      .poll(
        () => ready.locator('.live-responses-table tr.response .response-col_status').first().textContent(),
        {
          timeout: 15_000,
        },
      )
      .toContain('200');
    expect(await page.evaluate('window.violations')).toEqual([]);
    expect(problems).toEqual([]);
    await injectedScriptRefused(page);
    await page.close();
  }, 60_000);

  it('/explorer quotes and follows the stream under its CSP; an injected script is refused', async () => {
    const { page, problems } = await open('/explorer');
    await page.fill('input[name=from]', 'BTC');
    await page.fill('input[name=to]', 'USDT');
    await page.fill('input[name=amountIn]', '1');
    await page.click('button[type=submit]');
    await page.waitForSelector('body[data-ready=true]', { timeout: 15_000 });
    expect(await page.locator('#diagram .leg').count()).toBeGreaterThan(0);
    // Polled from here: a string predicate polled in the page would be an eval, which the page's CSP refuses.
    await waitFor(
      'the opening frame',
      async () => Number(await page.locator('#live').getAttribute('data-updates')) >= 1,
      15_000,
    );
    expect(await page.evaluate('window.violations')).toEqual([]);
    expect(problems).toEqual([]);
    await injectedScriptRefused(page);
    await page.close();
  }, 60_000);
});
