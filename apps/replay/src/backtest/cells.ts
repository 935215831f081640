import { byCodeUnit } from '@app/events';
import type { Strategy } from '@app/routing';
import type { QuoteRow } from './run-backtest';

export interface Tally {
  readonly name: string;
  readonly count: number;
  /** Share of the cell's routed quotes. */
  readonly share: number;
}

/**
 * The outcome of one scheduled request at one size with one strategy: every average is over
 * quotes of the same request and size, so amounts are in one unit and never mix 0.5 BTC with
 * 250,000 USDT. Savings are against best_single at the same instant, request and size.
 */
export interface CellSummary {
  readonly label: string;
  readonly from: string;
  readonly to: string;
  readonly exactSide: string;
  readonly size: number;
  readonly strategy: Strategy;
  readonly quotes: number;
  readonly routed: number;
  readonly fullFills: number;
  readonly meanFillRatio: number;
  readonly meanAmountIn: number | null;
  readonly meanAmountOut: number | null;
  readonly meanImpactBps: number | null;
  readonly meanSavingBps: number | null;
  readonly medianSavingBps: number | null;
  readonly p10SavingBps: number | null;
  readonly p90SavingBps: number | null;
  /** Share of compared quotes that beat best_single by more than 0.01 bps. */
  readonly beatBestSingle: number | null;
  /** Share of routed quotes that went through a bridge asset (two hops). */
  readonly bridgeShare: number | null;
  /** How often each venue carried a leg (share of routed quotes), most often first. */
  readonly venues: readonly Tally[];
  /** 'direct' or the bridge asset, share of routed quotes. */
  readonly paths: readonly Tally[];
}

/** Per strategy, counts only: a mean across requests of different assets would mean nothing. */
export interface StrategyCounts {
  readonly strategy: Strategy;
  readonly quotes: number;
  readonly routed: number;
  readonly fullFills: number;
}

interface Acc {
  readonly row: QuoteRow;
  quotes: number;
  routed: number;
  full: number;
  fill: number;
  amountIn: number;
  amountOut: number;
  impact: number[];
  saving: number[];
  bridged: number;
  venues: Map<string, number>;
  paths: Map<string, number>;
}

const key = (r: QuoteRow): string => `${r.label}\u0000${r.amount}\u0000${r.strategy}`;

/** Accumulates rows into per-(request, size, strategy) cells without keeping the rows. */
export class CellBuilder {
  private readonly cells = new Map<string, Acc>();

  add(r: QuoteRow): void {
    const k = key(r);
    let a = this.cells.get(k);
    if (a === undefined) {
      a = {
        row: r,
        quotes: 0,
        routed: 0,
        full: 0,
        fill: 0,
        amountIn: 0,
        amountOut: 0,
        impact: [],
        saving: [],
        bridged: 0,
        venues: new Map(),
        paths: new Map(),
      };
      this.cells.set(k, a);
    }
    a.quotes++;
    a.fill += r.fillRatio;
    if (r.savingVsBestSingleBps !== null) a.saving.push(r.savingVsBestSingleBps);
    if (!r.routed) return;
    a.routed++;
    a.amountIn += r.amountIn;
    a.amountOut += r.amountOut;
    if (r.fillRatio >= 1) a.full++;
    if (r.impactBps !== null) a.impact.push(r.impactBps);
    if (r.bridge !== null) a.bridged++;
    for (const v of r.venues.split(';')) if (v !== '') a.venues.set(v, (a.venues.get(v) ?? 0) + 1);
    const path = r.bridge ?? 'direct';
    a.paths.set(path, (a.paths.get(path) ?? 0) + 1);
  }

  /** Cells in schedule order: requests, then sizes, then strategies as scheduled. */
  build(
    order: readonly { label: string; sizes: readonly number[] }[],
    strategies: readonly Strategy[],
  ): CellSummary[] {
    const out: CellSummary[] = [];
    for (const req of order)
      for (const size of req.sizes)
        for (const strategy of strategies) {
          const a = this.cells.get(`${req.label}\u0000${size}\u0000${strategy}`);
          if (a !== undefined) out.push(summarise(a, strategy));
        }
    return out;
  }

  /** Per-strategy counts over every cell. */
  counts(strategies: readonly Strategy[]): StrategyCounts[] {
    return strategies.map((strategy) => {
      let quotes = 0;
      let routed = 0;
      let fullFills = 0;
      for (const a of this.cells.values())
        if (a.row.strategy === strategy) {
          quotes += a.quotes;
          routed += a.routed;
          fullFills += a.full;
        }
      return { strategy, quotes, routed, fullFills };
    });
  }
}

function summarise(a: Acc, strategy: Strategy): CellSummary {
  const tally = (m: Map<string, number>): Tally[] =>
    [...m.entries()]
      .map(([name, count]) => ({ name, count, share: a.routed > 0 ? count / a.routed : 0 }))
      .sort((x, y) => y.count - x.count || byCodeUnit(x.name, y.name));
  const sorted = [...a.saving].sort((x, y) => x - y);
  const routedMean = (total: number): number | null => (a.routed > 0 ? total / a.routed : null);
  return {
    label: a.row.label,
    from: a.row.from,
    to: a.row.to,
    exactSide: a.row.exactSide,
    size: a.row.amount,
    strategy,
    quotes: a.quotes,
    routed: a.routed,
    fullFills: a.full,
    meanFillRatio: a.quotes > 0 ? a.fill / a.quotes : 0,
    meanAmountIn: routedMean(a.amountIn),
    meanAmountOut: routedMean(a.amountOut),
    meanImpactBps: mean(a.impact),
    meanSavingBps: mean(a.saving),
    medianSavingBps: quantile(sorted, 0.5),
    p10SavingBps: quantile(sorted, 0.1),
    p90SavingBps: quantile(sorted, 0.9),
    beatBestSingle: sorted.length > 0 ? sorted.filter((s) => s > 0.01).length / sorted.length : null,
    bridgeShare: routedMean(a.bridged),
    venues: tally(a.venues),
    paths: tally(a.paths),
  };
}

function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Linear-interpolated quantile of ascending values. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}
