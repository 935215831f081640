import { byCodeUnit } from '@app/events';
import type { InstantFold } from '@app/history';
import { solve, type RouteResult, type RoutingConfig, type Strategy } from '@app/routing';
import type { DecayTracker } from './decay-tracker';
import { routeRequest, type Schedule } from './schedule';

/** One solved quote of the backtest (a CSV/JSONL row). */
export interface QuoteRow {
  readonly at: number;
  readonly label: string;
  readonly from: string;
  readonly to: string;
  readonly exactSide: string;
  readonly amount: number;
  readonly strategy: Strategy;
  readonly routed: boolean;
  readonly amountIn: number;
  readonly amountOut: number;
  readonly effectiveRate: number | null;
  readonly fillRatio: number;
  readonly impactBps: number | null;
  /** Against best_single on the same instant and size (any path), when best_single is scheduled. */
  readonly savingVsBestSingleBps: number | null;
  readonly path: string;
  readonly bridge: string | null;
  readonly venues: string;
  readonly legs: number;
  readonly unroutableReason: string | null;
}

export interface BacktestInput {
  /** The recorded books, folded up to each instant (libs/history's one definition of "books at t"). */
  readonly fold: InstantFold;
  readonly schedule: Schedule;
  readonly from: number;
  readonly to: number;
  readonly config: RoutingConfig;
  readonly onRow: (row: QuoteRow) => void;
  readonly onInstant?: (index: number, total: number) => void;
  /** High-resolution clock for the throughput figures (an argument: the engine reads no clock). */
  readonly clock: () => number;
  /** Quote decay: every quote's legs re-priced 1 s, 5 s and 30 s later (off when absent). */
  readonly decay?: DecayTracker;
}

export interface BacktestTiming {
  readonly instants: number;
  readonly quotes: number;
  readonly recordsFolded: number;
  readonly foldMs: number;
  readonly solveMs: number;
}

/**
 * At each scheduled instant, fold the recorded books up to it and solve every scheduled request
 * against them, with that instant as the clock. Records after `to` are never folded.
 */
export async function runBacktest(input: BacktestInput): Promise<BacktestTiming> {
  const { fold, schedule, config, clock } = input;
  const total = Math.floor((input.to - input.from) / schedule.intervalMs) + 1;
  let quotes = 0;
  let foldMs = 0;
  let solveMs = 0;
  for (let k = 0; k < total; k++) {
    const at = input.from + k * schedule.intervalMs;
    // The decay horizons due before this instant, in order: the fold only moves forward. Not
    // counted in the fold and solve figures.
    for (let due = input.decay?.nextDue(at) ?? null; due !== null; due = input.decay!.nextDue(at)) {
      await fold.advanceTo(due);
      input.decay!.priceDue(due, fold.routable(due), config);
    }
    const f0 = clock();
    await fold.advanceTo(at);
    const s0 = clock();
    foldMs += s0 - f0;
    // Without the markets whose market or venue record the log lost (docs/operations-log.md).
    const books = fold.routable(at);
    for (const req of schedule.requests) {
      for (const amount of req.sizes) {
        const results = new Map<Strategy, RouteResult>();
        for (const strategy of schedule.strategies) {
          const id = `bt-${at}-${req.label}-${amount}-${strategy}`;
          const request = routeRequest(req, amount, strategy, id);
          const result = solve({ request, books, now: at, config });
          results.set(strategy, result);
          input.decay?.add(req.label, amount, request, result, at);
          quotes++;
        }
        const single = results.get('best_single');
        for (const [strategy, r] of results) input.onRow(row(at, req.label, strategy, r, single));
      }
    }
    solveMs += clock() - s0;
    input.onInstant?.(k + 1, total);
  }
  // Horizons after the last instant but within the range are priced too; later ones never are.
  for (let due = input.decay?.nextDue(input.to) ?? null; due !== null; due = input.decay!.nextDue(input.to)) {
    await fold.advanceTo(due);
    input.decay!.priceDue(due, fold.routable(due), config);
  }
  return { instants: total, quotes, recordsFolded: fold.folded, foldMs, solveMs };
}

function row(
  at: number,
  label: string,
  strategy: Strategy,
  r: RouteResult,
  single: RouteResult | undefined,
): QuoteRow {
  const routed = r.unroutableReason === null && r.amountOut > 0;
  const venues = new Set<string>();
  let legs = 0;
  for (const h of r.hops)
    for (const l of h.legs) {
      venues.add(l.exchangeId);
      legs++;
    }
  const first = r.hops[0];
  // The bridge is what hop 1 delivers: a buy delivers the base, a sell the quote.
  const bridge =
    r.hops.length === 2 && first !== undefined ? (first.side === 'buy' ? first.base : first.quote) : null;
  return {
    at,
    label,
    from: r.from,
    to: r.to,
    exactSide: r.exactSide,
    amount: r.requestedAmount,
    strategy,
    routed,
    amountIn: r.amountIn,
    amountOut: r.amountOut,
    effectiveRate: r.effectiveRate,
    fillRatio: r.fillRatio,
    impactBps: r.impactBps,
    savingVsBestSingleBps: saving(r, single),
    path: r.hops.map((h) => h.pair).join(' > '),
    bridge,
    venues: [...venues].sort(byCodeUnit).join(';'),
    legs,
    unroutableReason: r.unroutableReason,
  };
}

/** Better (positive) when the strategy gets more out (exact-in) or pays less in (exact-out) than best_single. */
function saving(r: RouteResult, single: RouteResult | undefined): number | null {
  if (single === undefined) return r.savingVsBestSingleBps;
  if (r.unroutableReason !== null || single.unroutableReason !== null) return null;
  if (r.exactSide === 'in')
    return single.amountOut > 0 && r.amountOut > 0 ? (r.amountOut / single.amountOut - 1) * 10_000 : null;
  // Exact-out compares cost only when both filled the same amount.
  if (r.amountOut !== single.amountOut || r.amountIn <= 0) return null;
  return (single.amountIn / r.amountIn - 1) * 10_000;
}
