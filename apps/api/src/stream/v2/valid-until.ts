import type { MarketsView } from '@app/books';
import type { RouteResult } from '@app/routing';

/**
 * The earliest instant (epoch ms, the service clock) at which a book the route fills on turns
 * stale (receivedAt + staleBookMs, the solver's freshness rule); null when no leg fills.
 */
export function validUntilOf(result: RouteResult, books: MarketsView): number | null {
  let until: number | null = null;
  for (const hop of result.hops)
    for (const leg of hop.legs) {
      const book = books.book(leg.exchangeId, hop.pair);
      if (book === undefined) continue;
      const stale = book.receivedAt + result.staleBookMs;
      if (until === null || stale < until) until = stale;
    }
  return until;
}
