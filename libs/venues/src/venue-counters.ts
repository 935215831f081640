/**
 * What went wrong on one venue, counted since the ingestor started (served in /metrics as
 * `ingestor_venue_events_total{venue,event}`; docs/venues.md "Metrics").
 */
export interface VenueCounters {
  /** Rejections or exceptions that escaped ccxt's own handling on this venue's path, contained. */
  escapes: number;
  /** Subscription attempts that failed (the loop re-subscribes after its backoff). */
  failures: number;
  /** Books withheld because a side was empty or best bid >= best ask. */
  badBooks: number;
  /** Sequence gaps (ccxt's InvalidNonce, binance's U/u check, our own sequence checks). */
  gaps: number;
  /** Checksum mismatches (ccxt's and our own). */
  checksumFailures: number;
  /** Books silent past their silence timeout. */
  stalls: number;
  /** Books resynchronised one at a time (re-subscribed alone). */
  bookResyncs: number;
  /** Connections closed to resynchronise the books they carry. */
  connectionResyncs: number;
  /** REST answers 429 or 418 (rate limited or banned), and websocket refusals naming them. */
  rateLimited: number;
  /** Times the circuit breaker parked the venue. */
  parks: number;
}

export type VenueEvent = keyof VenueCounters;

export const VENUE_EVENTS: readonly VenueEvent[] = [
  'escapes',
  'failures',
  'badBooks',
  'gaps',
  'checksumFailures',
  'stalls',
  'bookResyncs',
  'connectionResyncs',
  'rateLimited',
  'parks',
];

export function emptyCounters(): VenueCounters {
  return {
    escapes: 0,
    failures: 0,
    badBooks: 0,
    gaps: 0,
    checksumFailures: 0,
    stalls: 0,
    bookResyncs: 0,
    connectionResyncs: 0,
    rateLimited: 0,
    parks: 0,
  };
}

/** One venue as /metrics and the summary line see it. */
export interface VenueHealth {
  readonly exchangeId: string;
  readonly state: 'starting' | 'connecting' | 'connected' | 'parked';
  /** Epoch ms of the next probe while parked, else null. */
  readonly parkedUntil: number | null;
  /** Books the venue watches, and those whose last publish was a good book (not withheld or resyncing). */
  readonly books: number;
  readonly goodBooks: number;
  readonly counters: Readonly<VenueCounters>;
}
