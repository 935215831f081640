export { BookFeed } from './book-feed';
export { createBookFeed, LogBookFeed } from './log-book-feed';
export type { BookFeedOptions, FeedLogger } from './log-book-feed';
