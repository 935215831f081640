export { BookFeed } from './book-feed';
export type { FeedHealth, FeedStatus } from './book-feed';
export { createBookFeed, LogBookFeed } from './log-book-feed';
export type { BookFeedOptions, FeedLogger } from './log-book-feed';
export { lostListings, VenuesTracker } from './lost-listings';
export type { ListingRecords, RecordAt, VenuesGap } from './lost-listings';
export { decodeEntry, foldEntries, readRange } from './fold';
export type { DecodedEntry, OnApplied, OnSkipped, SkippedEntry } from './fold';
