import { BookCache, type MarketRules } from '@app/books';
import type { EventRecord } from '@app/events';
import { routeRequest } from '@app/request';
import type { RouteRequest, RoutingConfig } from '@app/routing';
import { T0 } from '@test/support';

/** A venue's book for a market in a fixture: levels best first, and how old it is. */
export interface BookSpec {
  readonly exchangeId: string;
  readonly symbol: string;
  readonly bids?: [number, number][];
  readonly asks?: [number, number][];
  /** Taker fee; null = none published (the default applies). */
  readonly fee?: number | null;
  /** Book age at NOW in ms (default 0). */
  readonly ageMs?: number;
  readonly certified?: boolean;
  /** Only a market record, no book (a listed venue whose feed never arrived). */
  readonly noBook?: boolean;
  readonly outOfSync?: boolean;
  /** Order rules on the market record (docs/semantics.md section 13); a key left out is absent. */
  readonly rules?: Partial<MarketRules>;
}

export const NOW = T0;

export const CONFIG: RoutingConfig = {
  staleBookMs: 10_000,
  stalenessPenaltyBps: 0,
  defaultTakerFeeRate: 0.001,
};

/** Records that produce the given books (market, venue, snapshot, optional gap). */
export function recordsFor(specs: readonly BookSpec[], now = NOW): EventRecord[] {
  const out: EventRecord[] = [];
  for (const s of specs) {
    const [base, quote] = s.symbol.split('/') as [string, string];
    out.push({
      v: 1,
      type: 'venue',
      exchangeId: s.exchangeId,
      certified: s.certified ?? false,
      connected: true,
      lastError: null,
      receivedAt: now,
    });
    out.push({
      v: 1,
      type: 'market',
      exchangeId: s.exchangeId,
      symbol: s.symbol,
      base,
      quote,
      takerFeeRate: s.fee === undefined ? 0 : s.fee,
      ...s.rules,
      receivedAt: now,
    });
    if (s.noBook) continue;
    const receivedAt = now - (s.ageMs ?? 0);
    out.push({
      v: 1,
      type: 'book',
      exchangeId: s.exchangeId,
      symbol: s.symbol,
      snapshot: true,
      bids: s.bids ?? [],
      asks: s.asks ?? [],
      sequence: 1,
      exchangeTimestamp: null,
      receivedAt,
    });
    if (s.outOfSync) {
      out.push({
        v: 1,
        type: 'book',
        exchangeId: s.exchangeId,
        symbol: s.symbol,
        snapshot: false,
        bids: [],
        asks: [],
        sequence: 5,
        exchangeTimestamp: null,
        receivedAt,
      });
    }
  }
  return out;
}

export function cacheOf(specs: readonly BookSpec[], now = NOW): BookCache {
  const cache = new BookCache();
  for (const r of recordsFor(specs, now)) cache.apply(r);
  return cache;
}

/** A request with the spec's defaults, overridden by `over`. */
export function req(
  over: Partial<RouteRequest> & Pick<RouteRequest, 'from' | 'to' | 'amount'>,
): RouteRequest {
  return routeRequest({ requestId: 'req-1', ...over });
}
