import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import { book, market, T0, venue } from '@test/support';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplayCli } from './support/run-replay';

// Quote decay in the backtest, by hand: sell 1.5 ETH (best_single, fees 0, no staleness penalty)
// at T0 + 1 s on venue a, whose bids are 2000 x 1, 1990 x 5: 2995 USDT. The recording moves a's
// bids to 1990 x 1, 1980 x 5 at T0 + 3 s and to 1970 x 3 at T0 + 10 s. The same leg (a, 1.5 ETH):
// +1 s 2995 (0 bps), +5 s 1990 + 990 = 2980 ((2980 / 2995 - 1) * 10000 = -50.08 bps), +30 s
// 1.5 x 1970 = 2955 (-133.56 bps). Within 1 bps: held at +1 s, not at +5 s: half-life 5 s.

const RECORDING: EventRecord[] = [
  venue('a'),
  market('a', 'ETH/USDT', 0),
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
  strategies: ['best_single'],
  requests: [{ label: 'sell ETH', from: 'ETH', to: 'USDT', exactSide: 'in', sizes: [1.5], bridges: [] }],
};

describe('backtest: quote decay per request, size and strategy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backtest-decay-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('re-prices each quote 1 s, 5 s and 30 s later and reports the half-life', async () => {
    writeFileSync(join(dir, 'events.jsonl'), RECORDING.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(join(dir, 'schedule.json'), JSON.stringify(SCHEDULE));
    const out = join(dir, 'out');
    const r = await runReplayCli([
      'backtest',
      ...['--from', String(T0 + 1000), '--to', String(T0 + 40_000)],
      ...['--schedule', join(dir, 'schedule.json'), '--events', join(dir, 'events.jsonl'), '--out', out],
      ...['--stale-book-ms', '60000', '--staleness-penalty-bps', '0'],
    ]);
    expect(r.err.join('\n')).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      decay: {
        label: string;
        amount: number;
        strategy: string;
        quotes: number;
        horizons: { afterMs: number; meanBps: number; holding: number }[];
        halfLifeMs: number;
      }[];
    };
    expect(summary.decay).toHaveLength(1);
    const d = summary.decay[0]!;
    expect(d).toMatchObject({
      label: 'sell ETH',
      amount: 1.5,
      strategy: 'best_single',
      quotes: 1,
      halfLifeMs: 5000,
    });
    expect(d.horizons.map((h) => [h.afterMs, h.holding])).toEqual([
      [1000, 1],
      [5000, 0],
      [30_000, 0],
    ]);
    expect(d.horizons[0]!.meanBps).toBeCloseTo(0, 9);
    expect(d.horizons[1]!.meanBps).toBeCloseTo((2980 / 2995 - 1) * 10_000, 9);
    expect(d.horizons[2]!.meanBps).toBeCloseTo((2955 / 2995 - 1) * 10_000, 9);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<section id="decay"><h2>Quote decay</h2>');
    expect(html).toContain('<td>-50.08 bps, 0% hold (1)</td><td>-133.56 bps, 0% hold (1)</td><td>5.0 s</td>');
  });

  it('--no-decay leaves it out', async () => {
    const out = join(dir, 'out2');
    const r = await runReplayCli([
      'backtest',
      ...['--from', String(T0 + 1000), '--to', String(T0 + 40_000)],
      ...['--schedule', join(dir, 'schedule.json'), '--events', join(dir, 'events.jsonl'), '--out', out],
      '--no-decay',
    ]);
    expect(r.code).toBe(0);
    expect(
      (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { decay: unknown }).decay,
    ).toBeNull();
    expect(readFileSync(join(out, 'report.html'), 'utf8')).not.toContain('Quote decay');
  });
});
