import { BookPublisher } from './book-publisher';
import type { CcxtBook, CcxtClient } from './ccxt-venue';
import { resetCount, touchedBand, trackBook } from './side-tracker';
import type { TouchedBand } from './sync-side';

/**
 * One published book of a venue: its publisher, what ccxt last resolved for it, and its health.
 * An alias (coinbase's BTC/USDC) is a slot of its own fed by another symbol's ccxt book.
 */
export class BookSlot {
  readonly publisher: BookPublisher;
  /** The ccxt book last published from: a different object means ccxt rebuilt it. */
  published: CcxtBook | null = null;
  /** The book last resolved, its sides when they were last tracked, and their change bands. */
  seen: CcxtBook | null = null;
  bids: CcxtBook['bids'] | null = null;
  asks: CcxtBook['asks'] | null = null;
  bidBand: TouchedBand | undefined = undefined;
  askBand: TouchedBand | undefined = undefined;
  /** Resolved since the last flush; receivedAt is the last resolve's clock. */
  pending = false;
  receivedAt = 0;
  /** The ws client that last delivered this book (its connection is the coarse resync unit). */
  client: CcxtClient | null = null;
  /** Monotonic ms of the last update, or of the (re)subscription while none came since. */
  heardAt = 0;
  /** A bad book withheld: ignore this object (and its reset count) until ccxt rebuilds it. */
  withheld: { book: CcxtBook; resets: number | undefined } | null = null;
  /** A resync of this book is under way since this monotonic ms (null: none). */
  resyncSince: number | null = null;
  /** The last publish was a good book. */
  good = false;

  constructor(
    readonly symbol: string,
    /** The ccxt symbol whose book feeds this slot (itself, or the alias's target). */
    readonly source: string,
    readonly group: number,
    publisher: BookPublisher,
  ) {
    this.publisher = publisher;
  }

  get isAlias(): boolean {
    return this.source !== this.symbol;
  }

  /** ccxt resolved `book` through `client` at `receivedAt`; false when the slot ignores it (a withheld bad book). */
  observe(book: CcxtBook, client: CcxtClient, receivedAt: number, heardAt: number): boolean {
    if (this.withheld !== null) {
      if (book === this.withheld.book && resetCount(book) === this.withheld.resets) return false;
      this.withheld = null;
    }
    this.client = client;
    this.heardAt = heardAt;
    if (book !== this.seen || book.bids !== this.bids || book.asks !== this.asks) {
      // A new book or side object: tap it so later changes are banded (side-tracker.ts).
      trackBook(book);
      this.seen = book;
      this.bids = book.bids;
      this.asks = book.asks;
      this.bidBand = touchedBand(book.bids);
      this.askBand = touchedBand(book.asks);
    }
    this.receivedAt = receivedAt;
    return true;
  }

  /** Withhold the current ccxt book until ccxt rebuilds it (a new object, or a reset of this one). */
  withhold(): void {
    const book = this.seen;
    this.good = false;
    this.publisher.resync();
    if (book !== null) this.withheld = { book, resets: resetCount(book) };
  }

  /** Forget what was published: the next good book is a snapshot. */
  resync(): void {
    this.good = false;
    this.publisher.resync();
  }
}
