import type { Listing, MarketInfo, MarketsView } from './book-cache';
import type { BookView } from './order-book';

/**
 * `view` without the listings named in `withheld` (`exchangeId|symbol`): the solver sees those
 * venues as not listing those markets. Used for a market whose market or venue record a reader
 * knows was lost (docs/operations-log.md "A lost market or venue record"), so it is never priced
 * on a guessed fee. With nothing withheld, `view` itself.
 */
export function withoutListings(view: MarketsView, withheld: ReadonlySet<string>): MarketsView {
  if (withheld.size === 0) return view;
  const out = (exchangeId: string, symbol: string): boolean => withheld.has(`${exchangeId}|${symbol}`);
  return {
    listings: (symbol: string): readonly Listing[] =>
      view.listings(symbol).filter((l) => !out(l.exchangeId, symbol)),
    venuesListing: (symbol: string): readonly string[] =>
      view.venuesListing(symbol).filter((id) => !out(id, symbol)),
    book: (exchangeId: string, symbol: string): BookView | undefined =>
      out(exchangeId, symbol) ? undefined : view.book(exchangeId, symbol),
    market: (exchangeId: string, symbol: string): MarketInfo | undefined =>
      out(exchangeId, symbol) ? undefined : view.market(exchangeId, symbol),
    certified: (exchangeId: string): boolean => view.certified(exchangeId),
  };
}
