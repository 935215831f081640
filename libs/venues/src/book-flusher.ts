import type { EventRecord } from '@app/events';
import type { BookResync } from './book-resync';
import type { BookSlot } from './book-slot';
import type { CircuitBreaker } from './breaker';
import type { CcxtBook, CcxtClient } from './ccxt-venue';
import type { IngestorOptions } from './options';
import type { RecordWriter } from './record-writer';
import type { VenueCounters } from './venue-counters';
import type { VenueStatus } from './venue-status';

/** What publishing reads and changes of a venue's runner. */
export interface FlushContext {
  readonly exchangeId: string;
  readonly opts: IngestorOptions;
  readonly writes: RecordWriter;
  readonly counters: VenueCounters;
  /** ccxt symbol -> the slots its book feeds (itself and its aliases). */
  readonly feeds: ReadonlyMap<string, readonly BookSlot[]>;
  readonly breaker: CircuitBreaker;
  readonly status: VenueStatus;
  readonly resync: BookResync;
  stopped(): boolean;
}

/**
 * A venue's book publishing: every book ccxt resolves is noted (its slots marked dirty), and once
 * ccxt has finished the message (some apply several updates per frame) each dirty book is
 * published once (book-publisher.ts): a record, nothing when unchanged, or a bad book withheld
 * and resynced by its unit. A good book closes the circuit breaker and may bring its group up.
 */
export class BookFlusher {
  private dirty: BookSlot[] = [];
  private scheduled = false;
  private readonly task = (): void => this.flush();

  constructor(private readonly ctx: FlushContext) {}

  /** A value ccxt resolved on `client`: when it is a watched book, its slots are marked dirty. */
  observe(result: unknown, client: CcxtClient): void {
    if (typeof result !== 'object' || result === null) return;
    const book = result as Partial<CcxtBook>;
    if (typeof book.symbol !== 'string' || !Array.isArray(book.bids) || !Array.isArray(book.asks)) return;
    const feeds = this.ctx.feeds.get(book.symbol);
    if (feeds === undefined) return;
    const receivedAt = this.ctx.opts.now();
    const heardAt = this.ctx.opts.clock();
    for (const slot of feeds)
      if (slot.observe(book as CcxtBook, client, receivedAt, heardAt)) this.markDirty(slot);
  }

  /** Publish `slot` after the current message. */
  markDirty(slot: BookSlot): void {
    if (!slot.pending) {
      slot.pending = true;
      this.dirty.push(slot);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.task);
    }
  }

  private flush(): void {
    const { ctx } = this;
    this.scheduled = false;
    const dirty = this.dirty;
    this.dirty = [];
    const records: EventRecord[] = [];
    for (const slot of dirty) {
      slot.pending = false;
      if (ctx.stopped() || slot.seen === null || slot.withheld !== null) continue;
      const book = slot.seen;
      // ccxt resolves a book with no level at all for a message that carries none (pro/bitrue.js
      // takes its subscription ack, which names the book's channel, for a book): nothing to
      // publish yet, and nothing wrong. One empty side is a bad book.
      if (book.bids.length === 0 && book.asks.length === 0) continue;
      const pub = slot.publisher;
      // A new book object means ccxt rebuilt it from a fresh snapshot (re-subscription).
      if (slot.published !== book) pub.resync();
      slot.published = book;
      const ts = book.timestamp;
      const exchangeTimestamp = typeof ts === 'number' && Number.isFinite(ts) ? Math.trunc(ts) : null;
      const { receivedAt } = slot;
      const out = pub.publish(
        book.bids,
        book.asks,
        exchangeTimestamp,
        receivedAt,
        slot.bidBand,
        slot.askBand,
      );
      if (out.kind === 'record') {
        records.push(out.record);
        slot.good = true;
        slot.resyncSince = null;
        ctx.breaker.success();
        if (ctx.status.groupUp(slot.group)) records.push(ctx.status.record(receivedAt));
      } else if (out.kind === 'unchanged') {
        slot.good = true;
        slot.resyncSince = null;
      } else {
        ctx.counters.badBooks++;
        slot.withhold();
        ctx.opts.logger.warn('bad book withheld; resubscribing it', {
          exchangeId: ctx.exchangeId,
          symbol: slot.symbol,
          fault: out.fault,
        });
        ctx.resync.book(slot, `${slot.symbol}: ${out.fault.replace('_', ' ')} book withheld`);
      }
    }
    ctx.writes.push(records);
  }
}
