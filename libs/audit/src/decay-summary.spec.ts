import { describe, expect, it } from 'vitest';
import { decaySummary } from './decay-summary';
import type { QuoteDecay } from './quote-decay';

const quote = (...bps: (number | null)[]): QuoteDecay => ({
  rate: 1,
  points: [1000, 5000, 30_000].map((afterMs, i) => ({
    afterMs,
    rate: bps[i] === null ? null : 1,
    bps: bps[i] ?? null,
    problem: bps[i] === null ? 'beyond_log' : null,
  })),
});

describe('decaySummary: the half-life of a group of quotes', () => {
  it('interpolates exponentially between the horizons where the holding share crosses one half', () => {
    // Tolerance 1 bps. Holding: +1 s 4/4 (all >= -1), +5 s 3/4, +30 s 1/4.
    const s = decaySummary(
      [quote(0, 0, -3), quote(-0.5, -0.5, -2), quote(0.2, -2, -5), quote(0, 0.4, 0.1)],
      1,
    );
    expect(s.horizons.map((h) => h.holding)).toEqual([1, 0.75, 0.25]);
    expect(s.horizons[0]!.meanBps).toBeCloseTo(-0.3 / 4, 12);
    // Between (5 s, 0.75) and (30 s, 0.25): t = 5000 + 25000 * ln(0.5/0.75) / ln(0.25/0.75) = 14228.6 ms.
    expect(s.halfLifeMs!).toBeCloseTo(5000 + (25_000 * Math.log(2 / 3)) / Math.log(1 / 3), 6);
  });

  it('is null while more than half still hold at the last priced horizon; unpriced quotes are left out', () => {
    const s = decaySummary([quote(0, 0, null), quote(0, -5, null), quote(0, 0, null)], 1);
    expect(s.horizons.map((h) => [h.priced, h.holding])).toEqual([
      [3, 1],
      [3, 2 / 3],
      [0, null],
    ]);
    expect(s.halfLifeMs).toBeNull();
  });

  it('from the start: a share of one half at +1 s is a half-life of 1 s', () => {
    expect(decaySummary([quote(-5, -5, -5), quote(0, 0, 0)], 1).halfLifeMs).toBeCloseTo(1000, 9);
  });
});
