import type { BookCache, MarketsView } from '@app/books';
import type { LogHealth, PositionVector } from '@app/event-log';

/** `starting` until caught up; `degraded` while the log is damaged or books could not be rebuilt. */
export type FeedStatus = 'starting' | 'ok' | 'degraded';

/** What the feed knows is wrong with what it serves (drives /health and /exchanges/status). */
export interface FeedHealth {
  readonly status: FeedStatus;
  /** The log's own findings: damaged stretches skipped, problems, repairs. */
  readonly log: LogHealth;
  /** `exchangeId|symbol` of books not in sync since the feed caught up (no snapshot to rebuild from). */
  readonly booksNotRebuilt: readonly string[];
  /**
   * `exchangeId|symbol` of markets kept out of routing: their market or venue record may have been
   * lost to damage in the log, until the ingestor writes it again (docs/operations-log.md).
   */
  readonly listingsWithheld: readonly string[];
}

/**
 * The API's view of the book stream (DI token): a cache folded from the log, change
 * notifications for the stream gateway, and the position vector for the quote journal.
 */
export abstract class BookFeed {
  abstract readonly cache: BookCache;
  /**
   * What the solver may read now: the cache without the listings whose market or venue record the
   * feed knows may have been lost (`FeedHealth.listingsWithheld`); the cache itself when none.
   */
  abstract routable(): MarketsView;
  /** Start folding; resolves once caught up to the high-water marks seen at start. */
  abstract start(): Promise<void>;
  /** True once caught up. */
  abstract isReady(): boolean;
  /** Status and findings for /health and /exchanges/status. */
  abstract health(): FeedHealth;
  /** Subscribe to folded changes: the set of symbols whose books or listings changed in a batch. */
  abstract onChange(listener: (symbols: ReadonlySet<string>) => void): () => void;
  /** Position of each partition applied so far. */
  abstract positions(): PositionVector;
  abstract stop(): Promise<void>;
}

/** The subset of Nest's LoggerService the feed writes to. */
export interface FeedLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
