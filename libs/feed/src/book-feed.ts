import type { BookCache } from '@app/books';
import type { PositionVector } from '@app/log';

/**
 * The API's view of the book stream (DI token): a cache folded from the log, change
 * notifications for the stream gateway, and the position vector for the quote journal.
 */
export abstract class BookFeed {
  abstract readonly cache: BookCache;
  /** Start folding; resolves once caught up to the high-water marks seen at start. */
  abstract start(): Promise<void>;
  /** True once caught up (drives /health). */
  abstract isReady(): boolean;
  /** Subscribe to folded changes: the set of symbols whose books or listings changed in a batch. */
  abstract onChange(listener: (symbols: ReadonlySet<string>) => void): () => void;
  /** Position of each partition applied so far. */
  abstract positions(): PositionVector;
  abstract stop(): Promise<void>;
}
