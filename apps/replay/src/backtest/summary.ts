import { byCodeUnit } from '@app/events';
import type { Strategy } from '@app/routing';
import type { QuoteRow } from './run-backtest';

export interface Tally {
  readonly name: string;
  readonly count: number;
  readonly share: number;
}

/** Per-strategy outcome of a backtest (summary.json, the report's tables). */
export interface StrategySummary {
  readonly strategy: Strategy;
  readonly quotes: number;
  readonly routed: number;
  readonly fullFills: number;
  readonly meanFillRatio: number;
  readonly meanImpactBps: number | null;
  readonly meanSavingVsBestSingleBps: number | null;
  readonly medianSavingVsBestSingleBps: number | null;
  /** How often each venue carried a leg, share of routed quotes. */
  readonly venues: readonly Tally[];
  /** How often each path won: 'direct' or the bridge asset, share of routed quotes. */
  readonly bridges: readonly Tally[];
}

/** Accumulates rows into per-strategy summaries without keeping the rows. */
export class SummaryBuilder {
  private readonly acc = new Map<
    Strategy,
    {
      quotes: number;
      routed: number;
      full: number;
      fill: number;
      impact: number[];
      saving: number[];
      venues: Map<string, number>;
      bridges: Map<string, number>;
    }
  >();

  add(r: QuoteRow): void {
    let a = this.acc.get(r.strategy);
    if (a === undefined)
      this.acc.set(
        r.strategy,
        (a = {
          quotes: 0,
          routed: 0,
          full: 0,
          fill: 0,
          impact: [],
          saving: [],
          venues: new Map(),
          bridges: new Map(),
        }),
      );
    a.quotes++;
    a.fill += r.fillRatio;
    if (!r.routed) return;
    a.routed++;
    if (r.fillRatio >= 1) a.full++;
    if (r.impactBps !== null) a.impact.push(r.impactBps);
    if (r.savingVsBestSingleBps !== null) a.saving.push(r.savingVsBestSingleBps);
    for (const v of r.venues.split(';')) if (v !== '') a.venues.set(v, (a.venues.get(v) ?? 0) + 1);
    const b = r.bridge ?? 'direct';
    a.bridges.set(b, (a.bridges.get(b) ?? 0) + 1);
  }

  build(order: readonly Strategy[]): StrategySummary[] {
    return order.flatMap((strategy) => {
      const a = this.acc.get(strategy);
      if (a === undefined) return [];
      const tally = (m: Map<string, number>): Tally[] =>
        [...m.entries()]
          .map(([name, count]) => ({ name, count, share: a.routed > 0 ? count / a.routed : 0 }))
          .sort((x, y) => y.count - x.count || byCodeUnit(x.name, y.name));
      return [
        {
          strategy,
          quotes: a.quotes,
          routed: a.routed,
          fullFills: a.full,
          meanFillRatio: a.quotes > 0 ? a.fill / a.quotes : 0,
          meanImpactBps: mean(a.impact),
          meanSavingVsBestSingleBps: mean(a.saving),
          medianSavingVsBestSingleBps: median(a.saving),
          venues: tally(a.venues),
          bridges: tally(a.bridges),
        },
      ];
    });
  }
}

function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
