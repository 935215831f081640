import { BookCache } from '@app/books';
import { parseRecord, type BookRecord, type EventRecord, type Level, type VenueRecord } from '@app/events';
import type { RecordSink } from '@app/event-log';

/** An in-memory RecordSink: validates every record like a reader would, folds it, and keeps it. */
export class MemorySink implements RecordSink {
  readonly cache = new BookCache();
  readonly records: EventRecord[] = [];
  lastWriteAt = Date.now();

  write(records: readonly EventRecord[]): Promise<void> {
    for (const r of records) {
      // Round-trip through JSON and the strict parser: what the log carries is what is checked.
      const parsed = parseRecord(JSON.parse(JSON.stringify(r)));
      if (!parsed.ok) throw parsed.error;
      this.records.push(parsed.record);
      this.cache.apply(parsed.record);
    }
    this.lastWriteAt = Date.now();
    return Promise.resolve();
  }

  books(exchangeId: string, symbol?: string): BookRecord[] {
    return this.records.filter(
      (r): r is BookRecord =>
        r.type === 'book' && r.exchangeId === exchangeId && (symbol === undefined || r.symbol === symbol),
    );
  }

  venues(exchangeId: string): VenueRecord[] {
    return this.records.filter((r): r is VenueRecord => r.type === 'venue' && r.exchangeId === exchangeId);
  }

  /** The folded book's levels, best first. */
  levels(exchangeId: string, symbol: string): { bids: Level[]; asks: Level[]; inSync: boolean } | undefined {
    const book = this.cache.book(exchangeId, symbol);
    if (book === undefined) return undefined;
    return { bids: book.bids.toLevels(), asks: book.asks.toLevels(), inSync: book.inSync };
  }
}

export { waitFor } from '@test/support';

/** A book fold independent of @app/books: price -> amount per side, from raw venue levels. */
export class RawBook {
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();

  clear(): void {
    this.bids.clear();
    this.asks.clear();
  }

  set(side: 'bids' | 'asks', price: number, amount: number): void {
    if (amount === 0) this.get(side).delete(price);
    else this.get(side).set(price, amount);
  }

  private get(side: 'bids' | 'asks'): Map<number, number> {
    return side === 'bids' ? this.bids : this.asks;
  }

  /** Keep only the best `depth` levels per side (a depth-limited venue channel does not maintain the rest). */
  truncate(depth: number): void {
    const { bids, asks } = this.top(depth);
    this.clear();
    for (const [p, q] of bids) this.bids.set(p, q);
    for (const [p, q] of asks) this.asks.set(p, q);
  }

  /** Best `depth` levels per side as [price, amount], bids descending and asks ascending. */
  top(depth: number): { bids: Level[]; asks: Level[] } {
    const bids = [...this.bids].sort((a, b) => b[0] - a[0]).slice(0, depth);
    const asks = [...this.asks].sort((a, b) => a[0] - b[0]).slice(0, depth);
    return { bids, asks };
  }
}
