import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategySummary } from '../../apps/replay/src/backtest/summary';
import { runReplayCli } from './support/run-replay';

const ROOT = resolve(__dirname, '../..');
const START = 1_786_300_000_000;
const CHROMIUM = '/usr/bin/chromium';

describe('backtest over replay-data/', () => {
  const out = mkdtempSync(join(tmpdir(), 'backtest-'));
  const lines: string[] = [];
  let code = -1;

  beforeAll(async () => {
    const noLog = (): never => {
      throw new Error('the backtest must read --events, not the log');
    };
    const argv = [
      'backtest',
      '--from',
      String(START + 5_000),
      '--to',
      String(START + 115_000),
      '--schedule',
      'replay-data/schedule.example.json',
      '--events',
      'replay-data',
      '--out',
      out,
    ];
    const r = await runReplayCli(argv, { cwd: ROOT, openLog: noLog });
    code = r.code;
    lines.push(...r.err);
  }, 60_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes per-quote rows as CSV and JSONL and a summary per strategy', () => {
    expect(code).toBe(0);
    // 111 instants x (3 + 2 + 1 + 1 sizes) x 3 strategies.
    const quotes = 111 * 7 * 3;
    const csv = readFileSync(join(out, 'quotes.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe(
      'at,label,from,to,exactSide,amount,strategy,routed,amountIn,amountOut,effectiveRate,fillRatio,impactBps,savingVsBestSingleBps,path,bridge,venues,legs,unroutableReason',
    );
    expect(csv).toHaveLength(quotes + 1);
    const rows = readFileSync(join(out, 'quotes.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { at: number });
    expect(rows).toHaveLength(quotes);
    expect(rows[0]!.at).toBe(START + 5_000);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      strategies: StrategySummary[];
    };
    expect(summary.strategies.map((s) => s.strategy)).toEqual([
      'best_single',
      'split_optimal',
      'split_capped',
    ]);
    const [single, split] = summary.strategies as [StrategySummary, StrategySummary];
    expect(single.meanSavingVsBestSingleBps).toBe(0);
    // Splitting across 60 venues never does worse than the best single venue on the same books.
    expect(split.meanSavingVsBestSingleBps).toBeGreaterThan(0);
    expect(split.venues.length).toBeGreaterThan(3);
    expect(split.bridges.length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(/^backtest: 2331 quotes at 111 instants; folded \d+ records/);
  });

  it('writes a self-contained HTML report that renders in headless Chromium without errors', async () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(6);
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`).toBe(true);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) problems.push(`external request: ${r.url()}`);
      });
      await page.goto(`file://${join(out, 'report.html')}`);
      await expect.poll(() => page.locator('svg').count()).toBeGreaterThanOrEqual(6);
      expect(await page.locator('h1').textContent()).toBe('Routing backtest');
      const box = await page.locator('svg').first().boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-artifacts', 'backtest-report.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('refuses a bad schedule or range with a clear message', async () => {
    const run = async (argv: string[]): Promise<string> => {
      const r = await runReplayCli(['backtest', ...argv], { cwd: ROOT });
      expect(r.code, r.err.join('\n')).toBe(2);
      return r.err.join('\n');
    };
    expect(await run(['--from', '10', '--to', '5', '--schedule', 'x.json'])).toBe(
      '--to (5) must not be before --from (10)',
    );
    expect(
      await run(['--from', '1', '--to', '5', '--schedule', 'replay-data/synthetic-60-venues.jsonl']),
    ).toMatch(/is not valid JSON/);
    expect(await run(['--from', '1', '--to', '5', '--schedule', 'package.json'])).toMatch(
      /schedule: schedule.name is not a schedule field/,
    );
    expect(await run(['--from', 'abc', '--to', '5', '--schedule', 'x.json'])).toMatch(
      /option '--from <time>' argument 'abc' is invalid\. must be epoch milliseconds or an ISO 8601 time/,
    );
  });
});
