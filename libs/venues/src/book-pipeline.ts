import type { EventRecord } from '@app/events';
import { EventEmitter } from 'node:events';
import { BookResync } from './book-resync';
import type { BookSlot } from './book-slot';
import { BookSlots } from './book-slots';
import { BookWatchdog } from './book-watchdog';
import type { CcxtBook, CcxtClient, CcxtProExchange } from './ccxt-venue';
import type { IngestorOptions, VenueSettings } from './options';
import type { RecordWriter } from './record-writer';
import type { SubscriptionGroup, SubscriptionPlan } from './subscription-plan';
import type { VenueCounters } from './venue-counters';
import type { BookEvents } from './venue-events';

/**
 * A venue's books from what ccxt resolves to published records (docs/venues.md "Resilience"):
 * every book ccxt resolves is noted (its slots marked dirty), and once ccxt has finished the
 * message (some apply several updates per frame) each dirty book is published once
 * (book-publisher.ts): a record, nothing when unchanged, or a bad book withheld and resynced by
 * its unit. Integrity checks and silence timers (book-watchdog.ts) and resyncs (book-resync.ts)
 * are its parts. It hears the venue's connection through its methods and tells it through
 * `events`: a good book published, a connection to close.
 */
export class BookPipeline {
  readonly events = new EventEmitter<BookEvents>();
  private readonly slots: BookSlots;
  private readonly resync: BookResync;
  private readonly watchdog: BookWatchdog;
  private badBooks = 0;
  private dirty: BookSlot[] = [];
  private scheduled = false;
  private readonly task = (): void => this.flush();
  /** Epoch ms the venue is parked until, as the connection last told (null: not parked). */
  private parkedUntil: number | null = null;
  private silenceTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    exchange: CcxtProExchange,
    private readonly venue: VenueSettings,
    private readonly opts: IngestorOptions,
    /** The ingestor's one queue into the log (shared by every venue). */
    private readonly writes: RecordWriter,
  ) {
    this.slots = new BookSlots(venue.exchangeId, opts);
    this.resync = new BookResync(exchange, venue, opts, this.slots, this.events);
    this.watchdog = new BookWatchdog(exchange, venue, opts, this.slots, this.resync);
  }

  /** Whether every message ccxt handles must be shown to `message` (the venue has a check of the ingestor's own). */
  get checksMessages(): boolean {
    return this.watchdog.checks;
  }

  get books(): number {
    return this.slots.size;
  }

  get goodBooks(): number {
    return this.slots.good();
  }

  /** What went wrong with the venue's books so far. */
  counters(): Pick<
    VenueCounters,
    'badBooks' | 'gaps' | 'checksumFailures' | 'stalls' | 'bookResyncs' | 'connectionResyncs'
  > {
    return { badBooks: this.badBooks, ...this.watchdog.counters, ...this.resync.counters };
  }

  /** The books are planned: a slot for each, and the silence timer runs. */
  planned(plan: SubscriptionPlan): void {
    this.slots.plan(plan);
    this.silenceTimer = setInterval(
      () => {
        // A parked venue's books are silent by design.
        if (this.stopped || (this.parkedUntil !== null && this.parkedUntil > this.opts.now())) return;
        this.watchdog.silence();
      },
      Math.max(50, Math.min(1_000, this.venue.silenceMs / 4)),
    );
    this.silenceTimer.unref();
  }

  /** A value ccxt resolved on `client`: when it is a watched book, its slots are marked dirty. */
  observe(result: unknown, client: CcxtClient): void {
    if (typeof result !== 'object' || result === null) return;
    const book = result as Partial<CcxtBook>;
    if (typeof book.symbol !== 'string' || !Array.isArray(book.bids) || !Array.isArray(book.asks)) return;
    const feeds = this.slots.fedBy(book.symbol);
    if (feeds.length === 0) return;
    const receivedAt = this.opts.now();
    const heardAt = this.opts.clock();
    for (const slot of feeds)
      if (slot.observe(book as CcxtBook, client, receivedAt, heardAt)) this.markDirty(slot);
  }

  /** A message ccxt handled: the venue's own integrity check runs on it. */
  message(message: unknown, client: CcxtClient): void {
    if (!this.stopped) this.watchdog.message(message, client);
  }

  /** `group` subscribes again: its silence timers count from now, and ccxt's books of a dropped connection go. */
  subscribing(group: SubscriptionGroup): void {
    const t = this.opts.clock();
    for (const slot of this.slots.fedByAll(group.symbols)) slot.heardAt = t;
    this.resync.forget(group.symbols);
  }

  /** `group`'s watch was rejected as unsubscribed: the books unsubscribed alone are subscribed alone. */
  unsubscribed(group: SubscriptionGroup): void {
    for (const s of group.symbols) if (this.resync.unwatching.has(s)) this.resync.watchAlone(s);
  }

  /** ccxt's own gap or checksum check rejected `group`'s watch. */
  integrityFailed(group: SubscriptionGroup, kind: 'gap' | 'checksum', e: unknown): void {
    this.watchdog.rejected(group, kind, e);
  }

  /** `group`'s subscription failed: its next good books are snapshots. */
  groupLost(group: SubscriptionGroup): void {
    for (const slot of this.slots.fedByAll(group.symbols)) slot.resync();
  }

  parked(untilMs: number): void {
    this.parkedUntil = untilMs;
  }

  unparked(): void {
    this.parkedUntil = null;
  }

  /** Books of this venue lost records on the way to the log: their next record is a snapshot. */
  lost(symbols: Iterable<string>): void {
    for (const s of symbols) this.slots.get(s)?.publisher.resync();
  }

  /** After a log outage: publish a fresh snapshot of every book, so every cache resynchronises. */
  republishAll(): void {
    for (const slot of this.slots.values()) {
      if (slot.seen === null) continue;
      slot.publisher.resync();
      this.markDirty(slot);
    }
  }

  stop(): void {
    this.stopped = true;
    this.resync.stop();
    if (this.silenceTimer !== null) clearInterval(this.silenceTimer);
  }

  /** Publish `slot` after the current message. */
  private markDirty(slot: BookSlot): void {
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
    this.scheduled = false;
    const dirty = this.dirty;
    this.dirty = [];
    const records: EventRecord[] = [];
    for (const slot of dirty) {
      slot.pending = false;
      if (this.stopped || slot.seen === null || slot.withheld !== null) continue;
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
        this.events.emit('published', slot.group, receivedAt, records);
      } else if (out.kind === 'unchanged') {
        slot.good = true;
        slot.resyncSince = null;
      } else {
        this.badBooks++;
        slot.withhold();
        this.opts.logger.warn('bad book withheld; resubscribing it', {
          exchangeId: this.venue.exchangeId,
          symbol: slot.symbol,
          fault: out.fault,
        });
        this.resync.book(slot, `${slot.symbol}: ${out.fault.replace('_', ' ')} book withheld`);
      }
    }
    this.writes.push(records);
  }
}
