/** How a bad book of a venue is resynchronised: alone (re-subscribed by itself), or with its connection. */
export type ResyncUnit = 'book' | 'connection';

/** What ccxt's ChecksumError means on a venue: a checksum mismatch, or (binance) a sequence gap. */
export type ChecksumMeaning = 'checksum' | 'gap';

/**
 * One venue's rules (libs/venues/src/venue-quirks.ts holds the table; docs/venues.md lists each
 * with its source in the pinned ccxt or the venue's documentation).
 */
export interface VenueRule {
  /** Books per subscribe request: watchOrderBookForSymbols groups of this size; 1 = watchOrderBook per book. */
  readonly perRequest: number;
  /** Books one connection may carry (the venue's documented cap), or null when none is documented. */
  readonly perConnection: number | null;
  /** The deepest public book channel, given to ccxt as the watch limit (null: ccxt's default channel). */
  readonly watchLimit: number | null;
  /** How often the venue's book channel normally pushes a change of a busy book (ms). */
  readonly updateMs: number;
  /** Smallest unit a bad book is resynchronised by (ccxt can unsubscribe the book alone, or not). */
  readonly resync: ResyncUnit;
  /**
   * How one book is resynced when `resync` is `book`: ccxt's unWatchOrderBook then a new
   * subscription (default), or `drop`: ccxt's own gap reaction, the book and its subscription
   * dropped and the book subscribed alone (Binance: its unsubscribe names another connection).
   */
  readonly bookResync?: 'unwatch' | 'drop';
  /** What ccxt's ChecksumError means on this venue. */
  readonly checksumError: ChecksumMeaning;
  /** Markets the venue serves from another market's book: alias symbol -> the symbol ccxt files it under. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Set when public books need API keys in ccxt: the venue is not a default (VENUES_CONFIG with keys). */
  readonly credentials?: string;
  /** Set when the venue lists no market of the default asset universe: not a default. */
  readonly noDefaultMarket?: string;
  /** REST order-book snapshots: the venue's published weight budget per minute and one snapshot's weight. */
  readonly rest?: { readonly weightPerMinute: number; readonly snapshotWeight: number };
  /** ccxt `rateLimit` (ms) given to the class where its own is faster than the venue's budget (VENUES_CONFIG's `ccxt.rateLimit` wins). */
  readonly rateLimitMs?: number;
  /** Where each value comes from (ccxt source file and line, venue documentation). */
  readonly sources: readonly string[];
}

/**
 * The rule of a venue not in the table: one book per request (ccxt paces them), no connection
 * cap, ccxt's default channel, resync by connection, 1 s updates.
 */
export const DEFAULT_RULE: VenueRule = Object.freeze({
  perRequest: 1,
  perConnection: null,
  watchLimit: null,
  updateMs: 1_000,
  resync: 'connection',
  checksumError: 'checksum',
  sources: [],
});

/** A table entry: the default rule but for what the venue is known to differ in. */
export const rule = (r: Partial<VenueRule> & Pick<VenueRule, 'sources'>): VenueRule =>
  Object.freeze({ ...DEFAULT_RULE, ...r });

// Sources several venues share.
/** ccxt has no unWatchOrderBook for the class: the connection is the smallest unit it can resync. */
export const NO_UNWATCH =
  'ccxt has no unWatchOrderBook for this class: a bad book is resynced with its connection';
/** ccxt declares unWatchOrderBook, but no test here speaks the venue's protocol to prove it works. */
export const UNWATCH_UNTESTED =
  'ccxt has unWatchOrderBook for this class, not exercised offline against its protocol: a bad book is resynced with its connection';
