import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import { book, market, T0, venue } from '@test/support';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplayCli } from './support/run-replay';

// Backtests and quote decay on executable legs (docs/semantics.md section 13), by hand: venue a's
// ETH/USDT takes orders in steps of 0.5 ETH, of at least 100 USDT. Selling 1.7 ETH at T0 + 1 s
// against bids 2000 x 1, 1990 x 5 (fees 0) executes 1.5 ETH (three steps) for 2000 + 0.5 x 1990 =
// 2995 USDT; the 0.2 left is rounding dust (fillRatio 1.5 / 1.7), and 0.2 ETH alone is no order at
// all. The decay re-prices that executable leg, 1.5 ETH, at the later books, exactly as in
// backtest-decay.int.spec.ts: +5 s 2980 (-50.08 bps), +30 s 2955 (-133.56 bps).

const RECORDING: EventRecord[] = [
  venue('a'),
  { ...market('a', 'ETH/USDT', 0), amountStep: 0.5, minCost: 100 },
  book(
    'a',
    'ETH/USDT',
    [
      [2000, 1],
      [1990, 5],
    ],
    [[2010, 1]],
    1,
    T0,
  ),
  book(
    'a',
    'ETH/USDT',
    [
      [1990, 1],
      [1980, 5],
    ],
    [[2010, 1]],
    2,
    T0 + 3000,
  ),
  book('a', 'ETH/USDT', [[1970, 3]], [[2010, 1]], 3, T0 + 10_000),
];

const SCHEDULE = {
  intervalMs: 60_000,
  strategies: ['best_single', 'split_optimal'],
  requests: [{ label: 'sell ETH', from: 'ETH', to: 'USDT', exactSide: 'in', sizes: [1.7, 0.2], bridges: [] }],
};

interface Row {
  amount: number;
  strategy: string;
  routed: boolean;
  amountIn: number;
  amountOut: number;
  fillRatio: number;
  unroutableReason: string | null;
}

describe('backtest and quote decay price executable legs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backtest-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('solves on whole steps and re-prices the executable leg', async () => {
    writeFileSync(join(dir, 'events.jsonl'), RECORDING.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));
    const out = join(dir, 'out');
    const r = await runReplayCli([
      'backtest',
      ...['--from', String(T0 + 1000), '--to', String(T0 + 40_000)],
      ...['--schedule', join(dir, 'schedule.json'), '--events', join(dir, 'events.jsonl'), '--out', out],
      ...['--stale-book-ms', '60000', '--staleness-penalty-bps', '0'],
    ]);
    expect(r.code, r.err.join('\n')).toBe(0);
    const rows = readFileSync(join(out, 'quotes.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    for (const strategy of ['best_single', 'split_optimal']) {
      const big = rows.find((x) => x.strategy === strategy && x.amount === 1.7)!;
      expect([big.routed, big.amountIn, big.amountOut]).toEqual([true, 1.5, 2995]);
      expect(big.fillRatio).toBeCloseTo(1.5 / 1.7, 12);
      const small = rows.find((x) => x.strategy === strategy && x.amount === 0.2)!;
      expect([small.routed, small.unroutableReason]).toEqual([false, 'no_liquidity']);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      decay: { amount: number; strategy: string; horizons: { afterMs: number; meanBps: number }[] }[];
    };
    const d = summary.decay.find((x) => x.amount === 1.7 && x.strategy === 'best_single')!;
    expect(d.horizons.map((h) => h.afterMs)).toEqual([1000, 5000, 30_000]);
    expect(d.horizons[0]!.meanBps).toBeCloseTo(0, 9);
    expect(d.horizons[1]!.meanBps).toBeCloseTo((2980 / 2995 - 1) * 10_000, 9);
    expect(d.horizons[2]!.meanBps).toBeCloseTo((2955 / 2995 - 1) * 10_000, 9);
  });
});
