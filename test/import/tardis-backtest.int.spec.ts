import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '@test/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CellSummary } from '../../apps/replay/src/backtest/cells';
import { runReplayCli } from '../replay/support/run-replay';
import { importCli, ROOT } from './support/cli';
import { SYMBOLS, TWO_VENUES } from './support/tardis-data';

const tmp = mkdtempSync(join(tmpdir(), 'tardis-backtest-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const out = join(tmp, 'report');

// Sizes in the venues' own units: both books are of USD contracts (fixtures/README.md).
const SCHEDULE = {
  intervalMs: 1000,
  strategies: ['best_single', 'split_optimal'],
  requests: [
    { label: 'sell BTC for USD', from: 'BTC', to: 'USD', sizes: [100_000, 3_000_000], bridges: [] },
    { label: 'buy BTC with USD', from: 'USD', to: 'BTC', sizes: [1e10], bridges: [] },
  ],
};

describe('a backtest over an imported minute of two real venues (bitmex and deribit, tardis.dev data)', () => {
  let cells: CellSummary[] = [];
  beforeAll(async () => {
    const symbols = join(tmp, 'symbols.json');
    writeFileSync(symbols, JSON.stringify(SYMBOLS));
    const imported = importCli(
      ['--format', 'tardis-normalized', '--out', 'data', '--symbols', symbols, TWO_VENUES],
      tmp,
    );
    expect(imported.code, imported.err.join('\n')).toBe(0);
    writeFileSync(join(tmp, 'schedule.json'), JSON.stringify(SCHEDULE));
    const r = await runReplayCli(
      [
        'backtest',
        '--events',
        'data',
        '--schedule',
        'schedule.json',
        '--from',
        '2019-04-01T00:00:05Z',
        '--to',
        '2019-04-01T00:00:59Z',
        '--out',
        out,
      ],
      { cwd: tmp },
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err.at(-1)).toMatch(/^backtest: 330 quotes at 55 instants; folded \d+ records/);
    cells = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { cells: CellSummary[] }).cells;
  }, 60_000);

  it('routes every quote, and splits the large ones across both venues for a better rate than either alone', () => {
    expect(cells).toHaveLength(6);
    for (const c of cells)
      expect([c.label, c.size, c.strategy, c.routed, c.fullFills]).toEqual([
        c.label,
        c.size,
        c.strategy,
        55,
        55,
      ]);
    const big = cells.find((c) => c.size === 3_000_000 && c.strategy === 'split_optimal')!;
    expect(big.venues.map((v) => [v.name, v.share])).toEqual([
      ['bitmex', 1],
      ['deribit', 1],
    ]);
    expect(big.meanSavingBps).toBeGreaterThan(1);
  });

  it('writes the interactive report, every chart drawn in headless Chromium, nothing fetched from outside', async () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<link|<script[^>]*\ssrc=|<img/i);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) problems.push(`external request: ${r.url()}`);
      });
      await page.goto(`file://${join(out, 'report.html')}`);
      // Two requests: a time series, saving, fill, bridge and venue chart each.
      await expect.poll(() => page.locator('canvas').count()).toBe(10);
      const charts = await page.evaluate<{ id: string; painted: number; labels: unknown[]; sets: number }[]>(
        `[...document.querySelectorAll('canvas')].map((canvas) => {
          const chart = Chart.getChart(canvas);
          const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let painted = 0;
          for (let i = 3; i < px.length; i += 4) if (px[i] > 0) painted++;
          return { id: canvas.id, painted: painted / (canvas.width * canvas.height),
                   labels: chart ? chart.data.labels ?? [] : [], sets: chart ? chart.data.datasets.length : 0 };
        })`,
      );
      for (const c of charts) {
        expect(c.sets, c.id).toBeGreaterThan(0);
        expect(c.painted, c.id).toBeGreaterThan(0.01);
      }
      expect(new Set(charts.find((c) => c.id === 'r0-venues')!.labels)).toEqual(
        new Set(['bitmex', 'deribit']),
      );
      mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
      await page.screenshot({
        path: join(ROOT, 'test-artifacts', 'tardis-backtest-report.png'),
        fullPage: true,
      });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
