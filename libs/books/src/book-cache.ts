import { byCodeUnit as cmp } from '@app/events';
import type { BookRecord, EventRecord, MarketRecord, VenueRecord } from '@app/events';
import { OrderBook, type ApplyOutcome, type BookView } from './order-book';

/**
 * A market's order rules as its record carried them (docs/semantics.md section 13): each a number
 * > 0, or null when unknown.
 */
export interface MarketRules {
  readonly amountStep: number | null;
  readonly minAmount: number | null;
  readonly minCost: number | null;
  readonly maxAmount: number | null;
  /**
   * One slot for the solver's view of these rules: `make`'s value, made on the first call and kept
   * with them (a second kind of derived value would need a slot of its own). The cache's rules
   * have it; rules built elsewhere, e.g. in tests, may not.
   */
  derived?<T>(make: (rules: MarketRules) => T): T;
}

/**
 * The cache's rules: the record's four numbers, plus one slot where the solver keeps its view of
 * them (made once per record). The slot is a private field, so it sits inside the object, one
 * read from the rules, which the solver reads for every venue of every hop (a property added
 * later sits outside it: a solve in the service ran 10-15 % slower so), and JSON, spreads and
 * comparisons do not see it: the rules print and compare as the record's numbers alone.
 */
class CachedRules implements MarketRules {
  #derived: unknown = undefined;
  constructor(
    readonly amountStep: number | null,
    readonly minAmount: number | null,
    readonly minCost: number | null,
    readonly maxAmount: number | null,
  ) {}

  derived<T>(make: (rules: MarketRules) => T): T {
    if (this.#derived === undefined) this.#derived = make(this);
    return this.#derived as T;
  }
}

/** A market as a venue lists it. */
export interface MarketInfo {
  readonly exchangeId: string;
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly takerFeeRate: number | null;
  /** Null when the record carried no rule at all: the market routes as it always did. */
  readonly rules: MarketRules | null;
}

/** A venue's state: the last venue record plus counters folded from its book records. */
export interface VenueInfo {
  readonly exchangeId: string;
  readonly certified: boolean;
  readonly connected: boolean;
  readonly lastError: string | null;
  readonly reconnectCount: number;
  /** receivedAt of the venue's newest book record, or null. */
  readonly lastUpdateAt: number | null;
  /** Book records folded for this venue since this cache started. */
  readonly updateCount: number;
}

/** One venue listing a symbol: its book and market record when they have arrived. */
export interface Listing {
  readonly exchangeId: string;
  readonly book: BookView | undefined;
  readonly market: MarketInfo | undefined;
}

/** What the solver reads: listings, books, fees and certification. Never mutated by readers. */
export interface MarketsView {
  /** Venues listing `symbol` with their books and markets, sorted by exchangeId ascending. */
  listings(symbol: string): readonly Listing[];
  /** Venues listing `symbol` (a market record or a book), sorted by exchangeId ascending. */
  venuesListing(symbol: string): readonly string[];
  book(exchangeId: string, symbol: string): BookView | undefined;
  market(exchangeId: string, symbol: string): MarketInfo | undefined;
  /** The venue's `certified` flag; false for a venue with no venue record. */
  certified(exchangeId: string): boolean;
}

export type CacheOutcome = ApplyOutcome | 'market' | 'venue';

interface MutableVenue {
  exchangeId: string;
  certified: boolean;
  connected: boolean;
  lastError: string | null;
  reconnectCount: number;
  lastUpdateAt: number | null;
  updateCount: number;
}

const key = (exchangeId: string, symbol: string): string => `${exchangeId}|${symbol}`;

/** In-memory books, markets and venues folded from event records. */
export class BookCache implements MarketsView {
  private readonly books = new Map<string, OrderBook>();
  private readonly booksByVenue = new Map<string, Map<string, { book: OrderBook; venue: MutableVenue }>>();
  private readonly markets = new Map<string, MarketInfo>();
  private readonly venues = new Map<string, MutableVenue>();
  /** symbol -> venues listing it (ids and entries), both kept sorted by exchangeId. */
  private readonly bySymbol = new Map<string, { ids: string[]; entries: MutableListing[] }>();

  /** Fold one validated record. */
  apply(record: EventRecord): CacheOutcome {
    switch (record.type) {
      case 'book':
        return this.applyBook(record);
      case 'market':
        this.applyMarket(record);
        return 'market';
      case 'venue':
        this.applyVenue(record);
        return 'venue';
    }
  }

  applyBook(record: BookRecord): ApplyOutcome {
    // Nested lookups (venue, then symbol) avoid building a key string per record on this hot path.
    let perVenue = this.booksByVenue.get(record.exchangeId);
    if (perVenue === undefined) {
      perVenue = new Map();
      this.booksByVenue.set(record.exchangeId, perVenue);
    }
    let entry = perVenue.get(record.symbol);
    if (entry === undefined) {
      const book = new OrderBook(record.exchangeId, record.symbol);
      this.books.set(key(record.exchangeId, record.symbol), book);
      this.list(record.symbol, record.exchangeId).book = book;
      entry = { book, venue: this.venue(record.exchangeId) };
      perVenue.set(record.symbol, entry);
    }
    const outcome = entry.book.apply(record);
    const venue = entry.venue;
    venue.updateCount++;
    if (venue.lastUpdateAt === null || record.receivedAt > venue.lastUpdateAt)
      venue.lastUpdateAt = record.receivedAt;
    return outcome;
  }

  /**
   * Put a book back to its state before any record (a reader of past books folding it again from
   * the start; docs/replay.md "The books at an instant"). The venue's counters are kept.
   */
  resetBook(exchangeId: string, symbol: string): void {
    this.books.get(key(exchangeId, symbol))?.reset();
  }

  private applyMarket(record: MarketRecord): void {
    const market: MarketInfo = {
      exchangeId: record.exchangeId,
      symbol: record.symbol,
      base: record.base,
      quote: record.quote,
      takerFeeRate: record.takerFeeRate,
      rules: rulesOf(record),
    };
    this.markets.set(key(record.exchangeId, record.symbol), market);
    this.list(record.symbol, record.exchangeId).market = market;
    this.venue(record.exchangeId);
  }

  private applyVenue(record: VenueRecord): void {
    const venue = this.venue(record.exchangeId);
    venue.certified = record.certified;
    venue.connected = record.connected;
    venue.lastError = record.lastError;
    if (record.reconnectCount !== undefined) venue.reconnectCount = record.reconnectCount;
  }

  private venue(exchangeId: string): MutableVenue {
    let v = this.venues.get(exchangeId);
    if (v === undefined) {
      v = {
        exchangeId,
        certified: false,
        connected: false,
        lastError: null,
        reconnectCount: 0,
        lastUpdateAt: null,
        updateCount: 0,
      };
      this.venues.set(exchangeId, v);
    }
    return v;
  }

  private list(symbol: string, exchangeId: string): MutableListing {
    let sym = this.bySymbol.get(symbol);
    if (sym === undefined) {
      sym = { ids: [], entries: [] };
      this.bySymbol.set(symbol, sym);
    }
    // Binary insertion keeps the lists sorted whatever order venues arrive in.
    const ids = sym.ids;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! < exchangeId) lo = mid + 1;
      else hi = mid;
    }
    if (ids[lo] === exchangeId) return sym.entries[lo]!;
    const entry: MutableListing = { exchangeId, book: undefined, market: undefined };
    ids.splice(lo, 0, exchangeId);
    sym.entries.splice(lo, 0, entry);
    return entry;
  }

  listings(symbol: string): readonly Listing[] {
    return this.bySymbol.get(symbol)?.entries ?? EMPTY_LISTINGS;
  }

  venuesListing(symbol: string): readonly string[] {
    return this.bySymbol.get(symbol)?.ids ?? EMPTY;
  }

  book(exchangeId: string, symbol: string): OrderBook | undefined {
    return this.books.get(key(exchangeId, symbol));
  }

  market(exchangeId: string, symbol: string): MarketInfo | undefined {
    return this.markets.get(key(exchangeId, symbol));
  }

  certified(exchangeId: string): boolean {
    return this.venues.get(exchangeId)?.certified ?? false;
  }

  /** Every cached book, sorted by exchangeId then symbol. */
  allBooks(): OrderBook[] {
    return [...this.books.values()].sort(
      (a, b) => cmp(a.exchangeId, b.exchangeId) || cmp(a.symbol, b.symbol),
    );
  }

  /** Every symbol with at least one listing, sorted. */
  symbols(): string[] {
    return [...this.bySymbol.keys()].sort(cmp);
  }

  /** Every known venue, sorted by exchangeId. */
  venueStates(): VenueInfo[] {
    return [...this.venues.values()].map((v) => ({ ...v })).sort((a, b) => cmp(a.exchangeId, b.exchangeId));
  }
}

/** The record's order rules, or null when it carries none (absent and null alike). */
export function rulesOf(record: MarketRecord): MarketRules | null {
  const amountStep = record.amountStep ?? null;
  const minAmount = record.minAmount ?? null;
  const minCost = record.minCost ?? null;
  const maxAmount = record.maxAmount ?? null;
  if (amountStep === null && minAmount === null && minCost === null && maxAmount === null) return null;
  return new CachedRules(amountStep, minAmount, minCost, maxAmount);
}

interface MutableListing {
  readonly exchangeId: string;
  book: OrderBook | undefined;
  market: MarketInfo | undefined;
}

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_LISTINGS: readonly Listing[] = Object.freeze([]);
