import { BookCache } from '@app/books';
import type { BookRecord, EventRecord } from '@app/events';
import { bookRecords, listingRecords, type StreamSpec } from '@test/support';

/**
 * What the live venues are, for a writer test: the generated stream, and the truth every cache
 * must end at (everything the venues sent, in order). `snapshots()` is what the ingestor
 * publishes after a log outage: every book as it stands now, as a snapshot record.
 */
export class VenueModel {
  readonly truth = new BookCache();
  private readonly stream: Iterator<BookRecord>;
  readonly listings: EventRecord[];
  /** Books the writer said lost records: their next record is a snapshot (what BookPublisher.resync does). */
  private readonly resync = new Set<string>();

  constructor(readonly spec: StreamSpec) {
    this.listings = listingRecords(spec);
    for (const r of this.listings) this.truth.apply(r);
    this.stream = bookRecords(spec)[Symbol.iterator]();
  }

  /** The writer's onLost: those books publish a snapshot next. */
  lost(books: ReadonlySet<string>): void {
    for (const b of books) this.resync.add(b);
  }

  /** The next `n` records the venues send (fewer at the end of the stream). */
  next(n: number): BookRecord[] {
    const out: BookRecord[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.stream.next();
      if (r.done === true) break;
      this.truth.apply(r.value);
      const key = `${r.value.exchangeId}|${r.value.symbol}`;
      if (this.resync.delete(key)) out.push(this.snapshotOf(key));
      else out.push(r.value);
    }
    return out;
  }

  private snapshotOf(key: string): BookRecord {
    const bar = key.indexOf('|');
    return this.snapshots(key.slice(0, bar), key.slice(bar + 1))[0]!;
  }

  /**
   * A snapshot of every book, carrying its current sequence (the deltas after it follow on) and
   * the time of its last update, as VenueRunner.republishAll publishes them.
   */
  snapshots(exchangeId?: string, symbol?: string): BookRecord[] {
    return this.truth
      .allBooks()
      .filter(
        (b) => b.inSync && (exchangeId === undefined || (b.exchangeId === exchangeId && b.symbol === symbol)),
      )
      .map((b) => ({
        v: 1,
        type: 'book',
        exchangeId: b.exchangeId,
        symbol: b.symbol,
        snapshot: true,
        bids: b.bids.toLevels(),
        asks: b.asks.toLevels(),
        sequence: b.sequence,
        exchangeTimestamp: b.exchangeTimestamp,
        receivedAt: b.receivedAt,
      }));
  }
}
