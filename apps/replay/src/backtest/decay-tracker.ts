import { DECAY_HORIZONS_MS, decaySummary, repriceLegs, type DecaySummary, type QuoteDecay } from '@app/audit';
import type { MarketsView } from '@app/books';
import type { RouteRequest, RouteResult, RoutingConfig } from '@app/routing';

/** A quote waiting for its later horizons: its legs are re-priced when the fold reaches each one. */
interface Pending {
  readonly key: string;
  readonly request: RouteRequest;
  readonly result: RouteResult;
  readonly rate: number | null;
  readonly points: QuoteDecay['points'];
}

/** One row of the report's decay table: a request, size and strategy. */
export interface DecayRow extends DecaySummary {
  readonly label: string;
  readonly amount: number;
  readonly strategy: string;
}

const pathRate = (r: RouteResult): number | null =>
  r.unroutableReason !== null || r.hops.length === 0
    ? null
    : r.hops.reduce((p, h) => (h.amountIn > 0 ? p * (h.amountOut / h.amountIn) : NaN), 1);

/**
 * Quote decay inside a backtest (docs/explain.md section 3): each quote's legs re-priced with the
 * books the fold holds 1 s, 5 s and 30 s later. The fold only moves forward, so the due instants
 * are visited in order before the next scheduled instant; horizons after the range's end are not
 * priced (records after `to` are never folded).
 */
export class DecayTracker {
  private readonly queue: { due: number; at: number; item: Pending; horizon: number }[] = [];
  private readonly done = new Map<string, QuoteDecay[]>();
  private readonly meta = new Map<string, { label: string; amount: number; strategy: string }>();

  /** Follow a quote solved at `at`. */
  add(label: string, amount: number, request: RouteRequest, result: RouteResult, at: number): void {
    const key = `${label}\u0000${amount}\u0000${request.strategy}`;
    this.meta.set(key, { label, amount, strategy: request.strategy });
    const item: Pending = { key, request, result, rate: pathRate(result), points: [] };
    const list = this.done.get(key) ?? [];
    list.push({ rate: item.rate, points: item.points });
    this.done.set(key, list);
    for (const [horizon, ms] of DECAY_HORIZONS_MS.entries())
      this.queue.push({ due: at + ms, at, item, horizon });
  }

  /** The next due instant at or before `until`, or null. */
  nextDue(until: number): number | null {
    let best: number | null = null;
    for (const q of this.queue) if (q.due <= until && (best === null || q.due < best)) best = q.due;
    return best;
  }

  /** Price every horizon due at `due` against `books` (the fold advanced to `due`). */
  priceDue(due: number, books: MarketsView, config: RoutingConfig): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const q = this.queue[i]!;
      if (q.due !== due) continue;
      this.queue.splice(i, 1);
      const { item } = q;
      const afterMs = DECAY_HORIZONS_MS[q.horizon]!;
      if (item.rate === null) {
        item.points[q.horizon] = { afterMs, rate: null, bps: null, problem: 'the quote routed nothing' };
        continue;
      }
      const p = repriceLegs(item.result, item.request, books, due, config);
      item.points[q.horizon] = {
        afterMs,
        rate: p.rate,
        bps: p.rate === null ? null : (p.rate / item.rate - 1) * 10_000,
        problem: p.problem,
      };
    }
  }

  /** Per request, size and strategy: the decay summary (horizons past the range count as not priced). */
  summaries(toleranceBps: number): DecayRow[] {
    for (const q of this.queue)
      q.item.points[q.horizon] = {
        afterMs: DECAY_HORIZONS_MS[q.horizon]!,
        rate: null,
        bps: null,
        problem: 'beyond_range',
      };
    this.queue.length = 0;
    return [...this.done.entries()].map(([key, decays]) => ({
      ...this.meta.get(key)!,
      ...decaySummary(decays, toleranceBps),
    }));
  }
}
