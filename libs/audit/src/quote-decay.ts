import type { QuoteRecord } from '@app/journal';
import type { EventLog } from '@app/event-log';
import { reachAt, rebuildBooks, timeIndexOf } from '@app/history';
import { solve, type RouteRequest, type RouteResult, type SolveInput } from '@app/routing';

// Quote decay (docs/explain.md section 3): the legs of a journalled route, venue by venue and
// size by size, re-priced against the books the log holds a few seconds later.

/** The horizons of a decay, in ms after the quote: t+1 s, t+5 s, t+30 s. */
export const DECAY_HORIZONS_MS: readonly number[] = [1000, 5000, 30_000];

/** The route's legs re-priced at one horizon. */
export interface DecayPoint {
  readonly afterMs: number;
  /** The same legs' effective rate (output per input) then; null when it cannot be priced. */
  readonly rate: number | null;
  /** (rate / quoted rate - 1) * 10000: negative when the quote got worse. */
  readonly bps: number | null;
  /** Why there is no rate: `beyond_log` (the log ends first) or a leg that no longer fills. */
  readonly problem: string | null;
}

/** The quoted rate and how the same legs priced at each horizon. */
export interface QuoteDecay {
  readonly rate: number | null;
  readonly points: DecayPoint[];
}

/** Effective rate of a hop list: the product of each hop's output per input. */
function pathRate(hops: readonly { amountIn: number; amountOut: number }[]): number | null {
  let rate = 1;
  for (const h of hops) {
    if (!(h.amountIn > 0)) return null;
    rate *= h.amountOut / h.amountIn;
  }
  return hops.length === 0 ? null : rate;
}

/**
 * Re-price `result`'s legs against `books` at `now`: each leg is solved again by the solver itself
 * on its one venue for its base amount (a sell leg sells that base, a buy leg buys it), so the walk
 * and the fee arithmetic are the solver's. A hop's rate is its re-priced output per input; the
 * route's is their product. Pure: no I/O.
 */
export function repriceLegs(
  result: RouteResult,
  request: Omit<RouteRequest, 'asOf'>,
  books: SolveInput['books'],
  now: number,
  config: SolveInput['config'],
): { rate: number | null; problem: string | null } {
  const hops: { amountIn: number; amountOut: number }[] = [];
  for (const hop of result.hops) {
    let amountIn = 0;
    let amountOut = 0;
    for (const leg of hop.legs) {
      const sell = hop.side === 'sell';
      const leg1 = solve({
        request: {
          ...request,
          requestId: `${result.requestId}/decay`,
          from: sell ? hop.base : hop.quote,
          to: sell ? hop.quote : hop.base,
          exactSide: sell ? 'in' : 'out',
          amount: leg.amount,
          strategy: 'best_single',
          bridges: [],
          exchanges: [leg.exchangeId],
          certifiedOnly: false,
          balances: null,
          minLegNotional: 0,
          requireFullFill: false,
          includeQuotes: false,
        },
        books,
        now,
        config,
      });
      if (leg1.unroutableReason !== null || !leg1.fullyFillable)
        return {
          rate: null,
          problem: `${leg.exchangeId} ${hop.pair}: ${leg1.unroutableReason ?? 'partial_fill'}`,
        };
      amountIn += leg1.amountIn;
      amountOut += leg1.amountOut;
    }
    hops.push({ amountIn, amountOut });
  }
  return { rate: pathRate(hops), problem: null };
}

/**
 * The decay of a journalled quote: its recorded result (`result`, as replayed) re-priced against the
 * books rebuilt from the log at calculatedAt + each horizon, with that instant as the clock.
 */
export async function quoteDecay(
  log: EventLog,
  record: QuoteRecord,
  result: RouteResult,
  horizons: readonly number[] = DECAY_HORIZONS_MS,
): Promise<QuoteDecay> {
  const rate = result.unroutableReason === null ? pathRate(result.hops) : null;
  const { asOf: _asOf, ...request } = record.request;
  const symbols = new Set(result.hops.map((h) => h.pair));
  const upTo = {
    books: await log.highWatermarks('books'),
    venues: await log.highWatermarks('venues'),
  };
  const points: DecayPoint[] = [];
  for (const afterMs of horizons) {
    const at = record.calculatedAt + afterMs;
    if (rate === null) {
      points.push({ afterMs, rate: null, bps: null, problem: 'the quote routed nothing' });
      continue;
    }
    const reach = await reachAt(log, upTo, at);
    if (!reach.ok) {
      points.push({ afterMs, rate: null, bps: null, problem: reach.error });
      continue;
    }
    // No record stamped after the instant in any partition: the log ends before it, so it cannot say.
    if (!(await stampedAfter(log, upTo, at))) {
      points.push({ afterMs, rate: null, bps: null, problem: 'beyond_log' });
      continue;
    }
    const { view } = await rebuildBooks(log, upTo, symbols, { asOf: at, timeIndex: timeIndexOf(log) });
    const p = repriceLegs(result, request, view, at, record.config);
    points.push({
      afterMs,
      rate: p.rate,
      bps: p.rate === null ? null : (p.rate / rate - 1) * 10_000,
      problem: p.problem,
    });
  }
  return { rate, points };
}

/** Whether any record below `upTo` is stamped after `at` (read from the log's time index). */
async function stampedAfter(
  log: EventLog,
  upTo: { books: readonly number[]; venues: readonly number[] },
  at: number,
): Promise<boolean> {
  const index = timeIndexOf(log);
  for (const topic of ['books', 'venues'] as const)
    for (const [p, end] of upTo[topic].entries()) {
      if (end === 0) continue;
      const times = await index.partition(topic, p, end);
      if (times.max.some((m) => m > at)) return true;
    }
  return false;
}
