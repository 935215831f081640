export { BookSide } from './book-side';
export type { BookSideView } from './book-side';
export { OrderBook } from './order-book';
export type { ApplyOutcome, BookView } from './order-book';
export { BookCache, rulesOf } from './book-cache';
export type { CacheOutcome, Listing, MarketInfo, MarketRules, MarketsView, VenueInfo } from './book-cache';
export { bookHash } from './book-hash';
export { withoutListings } from './withheld-view';
