import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@test/support';
import type { CellSummary, StrategyCounts } from '../../apps/replay/src/backtest/cells';
import type { QuoteRow } from '../../apps/replay/src/backtest/run-backtest';
import { pyarrowPython } from './support/pyarrow';
import { runReplayCli } from './support/run-replay';

const ROOT = resolve(__dirname, '../..');
const START = 1_786_300_000_000;

describe('backtest over replay-data/', () => {
  const out = mkdtempSync(join(tmpdir(), 'backtest-'));
  const lines: string[] = [];
  let code = -1;
  let rows: QuoteRow[] = [];

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
    rows = readFileSync(join(out, 'quotes.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as QuoteRow);
  }, 60_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes per-quote rows as CSV, JSONL and Parquet, and a summary per request, size and strategy', () => {
    expect(code).toBe(0);
    // 111 instants x (3 + 2 + 1 + 1 sizes) x 3 strategies.
    const quotes = 111 * 7 * 3;
    const csv = readFileSync(join(out, 'quotes.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe(
      'at,label,from,to,exactSide,amount,strategy,routed,amountIn,amountOut,effectiveRate,fillRatio,impactBps,savingVsBestSingleBps,path,bridge,venues,legs,unroutableReason',
    );
    expect(csv).toHaveLength(quotes + 1);
    expect(rows).toHaveLength(quotes);
    expect(rows[0]!.at).toBe(START + 5_000);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      strategies: StrategyCounts[];
      cells: CellSummary[];
    };
    expect(summary.strategies.map((s) => [s.strategy, s.quotes])).toEqual([
      ['best_single', 777],
      ['split_optimal', 777],
      ['split_capped', 777],
    ]);
    // One cell per request, size and strategy; each averages quotes of one request at one size.
    expect(summary.cells).toHaveLength(7 * 3);
    for (const c of summary.cells) {
      const own = rows.filter((r) => r.label === c.label && r.amount === c.size && r.strategy === c.strategy);
      expect(own).toHaveLength(c.quotes);
      const routed = own.filter((r) => r.routed);
      if (routed.length > 0)
        expect(c.meanAmountOut).toBeCloseTo(routed.reduce((a, r) => a + r.amountOut, 0) / routed.length, 6);
      if (c.strategy === 'best_single') expect(c.meanSavingBps ?? 0).toBe(0);
    }
    const big = summary.cells.find(
      (c) => c.label === 'sell BTC for USDT' && c.size === 25 && c.strategy === 'split_optimal',
    )!;
    // Splitting 25 BTC across 60 venues beats the best single venue on the same books.
    expect(big.meanSavingBps).toBeGreaterThan(0);
    expect(big.venues.length).toBeGreaterThan(3);
    expect(big.paths.length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(/^backtest: 2331 quotes at 111 instants; folded \d+ records/);
  });

  it('writes Parquet that an independent reader (pyarrow, Arrow C++) reads back row for row', () => {
    const python = pyarrowPython();
    const script = [
      'import json, sys, pyarrow.parquet as pq',
      't = pq.read_table(sys.argv[1])',
      's = pq.read_table(sys.argv[2])',
      'rows = t.to_pylist()',
      'for r in rows: r["at"] = int(r["at"].timestamp() * 1000)',
      'print(json.dumps({"types": {f.name: str(f.type) for f in t.schema}, "rows": rows, "cells": s.num_rows, "cellCols": s.column_names}))',
    ].join('\n');
    const r = spawnSync(python, ['-c', script, join(out, 'quotes.parquet'), join(out, 'summary.parquet')], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(r.status, r.stderr).toBe(0);
    const read = JSON.parse(r.stdout) as {
      types: Record<string, string>;
      rows: unknown[];
      cells: number;
      cellCols: string[];
    };
    expect(read.types).toMatchObject({
      at: 'timestamp[ms, tz=UTC]',
      amount: 'double',
      routed: 'bool',
      savingVsBestSingleBps: 'double',
      legs: 'int32',
      bridge: 'string',
    });
    // Every row and every value, nulls included, equals the JSONL row.
    expect(read.rows).toEqual(rows);
    expect(read.cells).toBe(21);
    expect(read.cellCols).toContain('meanSavingBps');
  }, 300_000);

  it('writes one self-contained interactive HTML report whose every chart renders in headless Chromium', async () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<link|<script[^>]*\ssrc=|<img/i);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) problems.push(`external request: ${r.url()}`);
      });
      await page.goto(`file://${join(out, 'report.html')}`);
      expect(await page.locator('h1').textContent()).toBe('Routing backtest');
      // 4 requests: each a time series, saving, fill, bridge and venue chart.
      await expect.poll(() => page.locator('canvas').count()).toBe(20);
      // Runs in the page (this project's TypeScript has no DOM types): every canvas, its Chart.js
      // instance's datasets, and the share of its pixels painted.
      const charts = await page.evaluate<
        {
          id: string;
          width: number;
          height: number;
          painted: number;
          datasets: { label: string; points: number }[] | null;
        }[]
      >(`[...document.querySelectorAll('canvas')].map((canvas) => {
        const chart = Chart.getChart(canvas);
        const { width, height } = canvas;
        const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
        let painted = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted++;
        return {
          id: canvas.id, width, height, painted: painted / (width * height),
          datasets: chart ? chart.data.datasets.map((d) => ({ label: d.label, points: d.data.length })) : null,
        };
      })`);
      for (const c of charts) {
        expect(c.datasets, c.id).not.toBeNull();
        expect(c.width, c.id).toBeGreaterThan(300);
        expect(c.height, c.id).toBeGreaterThan(200);
        // Axes, labels and data: a blank canvas paints nothing.
        expect(c.painted, c.id).toBeGreaterThan(0.01);
        for (const d of c.datasets!) expect(d.points, `${c.id} ${d.label}`).toBeGreaterThan(0);
      }
      const series = charts.find((c) => c.id === 'r0-series')!;
      expect(series.datasets!.map((d) => d.label)).toEqual([
        'split_optimal · 0.5 BTC',
        'split_capped · 0.5 BTC',
        'split_optimal · 5 BTC',
        'split_capped · 5 BTC',
        'split_optimal · 25 BTC',
        'split_capped · 25 BTC',
      ]);
      expect(series.datasets![0]!.points).toBe(111);
      expect(charts.find((c) => c.id === 'r0-fill')!.datasets!.map((d) => d.label)).toEqual([
        'best_single',
        'split_optimal',
        'split_capped',
      ]);
      // Per-size tables: one row per size and strategy under each request.
      expect(await page.locator('section.request').count()).toBe(4);
      expect(await page.locator('section.request').first().locator('tr').count()).toBe(1 + 9);
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
