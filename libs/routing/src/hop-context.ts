import type { BookSideView, MarketsView } from '@app/books';
import { stalenessFraction } from './numeric';
import {
  CLOCK_SKEW_TOLERANCE_MS,
  type Balances,
  type RouteRequest,
  type RoutingConfig,
  type Side,
} from './types';
import { orderSteps, type OrderSteps } from './order-steps';

/** One venue as a hop sees it: fee, staleness, freshness and the walked side of its book. */
export interface VenueCtx {
  readonly exchangeId: string;
  /** Venue's taker fee rate as reported (market record, else the configured default). */
  readonly takerFeeRate: number;
  /** Fee applied to amounts and ranking: takerFeeRate, or 0 with includeFees=false. */
  readonly fee: number;
  /** Staleness markdown fraction (ranking only). */
  readonly s: number;
  /** now - receivedAt, clamped at 0; null when no book has arrived. */
  readonly ageMs: number | null;
  /** The book's receivedAt is ahead of the solver's clock by more than CLOCK_SKEW_TOLERANCE_MS. */
  readonly aheadOfClock: boolean;
  /** Routable: book present, in sync, not crossed, age <= staleBookMs, not ahead of the clock beyond CLOCK_SKEW_TOLERANCE_MS. */
  readonly fresh: boolean;
  /** The walked side (asks for a buy, bids for a sell); null when no book. */
  readonly levels: BookSideView | null;
  /** Per-base-unit price multiplier for ranking: (1+f)(1+s) on a buy, (1-f)(1-s) on a sell. */
  readonly rankMul: number;
  /** The market's order rules (docs/semantics.md section 13); null when it carries none. */
  readonly rules: OrderSteps | null;
}

/** A market conversion between two assets, with the venues it may use. */
export interface HopCtx {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly side: Side;
  readonly inAsset: string;
  readonly outAsset: string;
  /** Venues listing the market after the exchanges/certified filters, by exchangeId. */
  readonly venues: readonly VenueCtx[];
  /** The fresh subset of `venues`, same order. */
  readonly fresh: readonly VenueCtx[];
  /** Some fresh venue's market carries order rules: the hop is solved by the rule-aware walks. */
  readonly ruled: boolean;
}

/** Build the context of a hop converting `inAsset` over market `symbol` (BASE/QUOTE). */
export function hopContext(
  symbol: string,
  inAsset: string,
  request: RouteRequest,
  books: MarketsView,
  now: number,
  config: RoutingConfig,
): HopCtx {
  const slash = symbol.indexOf('/');
  const base = symbol.slice(0, slash);
  const quote = symbol.slice(slash + 1);
  const side: Side = inAsset === quote ? 'buy' : 'sell';
  const allow = request.exchanges === null ? null : new Set(request.exchanges);
  const venues: VenueCtx[] = [];
  const fresh: VenueCtx[] = [];
  const withRules = config.ignoreVenueRules !== true;
  let ruled = false;
  for (const listing of books.listings(symbol)) {
    const exchangeId = listing.exchangeId;
    if (allow !== null && !allow.has(exchangeId)) continue;
    if (request.certifiedOnly && !books.certified(exchangeId)) continue;
    const takerFeeRate = listing.market?.takerFeeRate ?? config.defaultTakerFeeRate;
    const fee = request.includeFees ? takerFeeRate : 0;
    const book = listing.book;
    const ageMs = book === undefined || book.sequence < 0 ? null : Math.max(0, now - book.receivedAt);
    const crossed = book !== undefined && book.crossed;
    const ahead = book !== undefined && book.receivedAt - now > CLOCK_SKEW_TOLERANCE_MS;
    const isFresh =
      book !== undefined &&
      ageMs !== null &&
      book.inSync &&
      !crossed &&
      !ahead &&
      ageMs <= config.staleBookMs;
    const s = ageMs === null ? 0 : stalenessFraction(config.stalenessPenaltyBps, ageMs);
    const ctx: VenueCtx = {
      exchangeId,
      takerFeeRate,
      fee,
      s,
      ageMs,
      aheadOfClock: ahead,
      fresh: isFresh,
      levels: book === undefined ? null : side === 'buy' ? book.asks : book.bids,
      rankMul: side === 'buy' ? (1 + fee) * (1 + s) : (1 - fee) * (1 - s),
      rules: withRules ? orderSteps(listing.market?.rules) : null,
    };
    venues.push(ctx);
    if (isFresh) {
      fresh.push(ctx);
      if (ctx.rules !== null) ruled = true;
    }
  }
  return {
    symbol,
    base,
    quote,
    side,
    inAsset,
    outAsset: side === 'buy' ? base : quote,
    venues,
    fresh,
    ruled,
  };
}

/** What venue `exchangeId` holds of `asset` per the request's balances (0 when unlisted). */
export function holding(balances: Balances, exchangeId: string, asset: string): number {
  const own = balances.perVenue[exchangeId]?.[asset];
  if (own !== undefined) return own;
  return balances.default[asset] ?? 0;
}
