/** A price level: [price, amount]. In a delta, amount 0 removes the level. */
export type Level = readonly [price: number, amount: number];

/** The state of one venue's order book for one market (events.md "Book record"). */
export interface BookRecord {
  readonly v: 1;
  readonly type: 'book';
  readonly exchangeId: string;
  readonly symbol: string;
  readonly snapshot: boolean;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  readonly sequence: number;
  readonly exchangeTimestamp: number | null;
  readonly receivedAt: number;
  /**
   * Optional (docs/events.md "Owner epochs"): the epoch of the ingestor run that published the
   * record, written by ingestors of a group. A delta of an earlier epoch than its book's latest
   * snapshot is ignored; absent, the sequence rules alone apply.
   */
  readonly epoch?: number;
}

/**
 * The four optional order rules a market record may carry (docs/events.md, docs/semantics.md
 * section 13). Each is a number > 0 or null (unknown); absent means the same as null.
 */
export const MARKET_RULE_FIELDS = ['amountStep', 'minAmount', 'minCost', 'maxAmount'] as const;
export type MarketRuleField = (typeof MARKET_RULE_FIELDS)[number];

/** A market a venue lists, its taker fee and, when known, its order rules (events.md "Market record"). */
export interface MarketRecord {
  readonly v: 1;
  readonly type: 'market';
  readonly exchangeId: string;
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  /** Fraction, e.g. 0.001. Null when the venue publishes none (the configured default applies). */
  readonly takerFeeRate: number | null;
  /** Base units; an order's amount must be a whole multiple of it. */
  readonly amountStep?: number | null;
  /** Base units: the smallest order. */
  readonly minAmount?: number | null;
  /** Quote units: the smallest amount x price of an order. */
  readonly minCost?: number | null;
  /** Base units: the largest single order. */
  readonly maxAmount?: number | null;
  readonly receivedAt: number;
}

/**
 * A venue's connection state and certification (events.md "Venue record").
 * `reconnectCount` and `updateCount` are optional project additions (docs/events.md).
 */
export interface VenueRecord {
  readonly v: 1;
  readonly type: 'venue';
  readonly exchangeId: string;
  readonly certified: boolean;
  readonly connected: boolean;
  readonly lastError: string | null;
  readonly receivedAt: number;
  readonly reconnectCount?: number;
}

export type EventRecord = BookRecord | MarketRecord | VenueRecord;
export type RecordType = EventRecord['type'];

/**
 * Log key of a record: books by `exchangeId|symbol`; market and venue records share the venues
 * topic keyed by `exchangeId`, which keeps every per-market order events.md asks for and also
 * orders a venue's markets with its venue records (docs/events.md).
 */
export function recordKey(record: EventRecord): string {
  switch (record.type) {
    case 'book':
      return `${record.exchangeId}|${record.symbol}`;
    case 'market':
    case 'venue':
      return record.exchangeId;
  }
}
