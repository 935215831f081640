import type { EventRecord, MarketRecord } from '@app/events';
import { NetworkError } from 'ccxt';
import { BookPublisher } from './book-publisher';
import { createVenue, type CcxtBook, type CcxtClient, type CcxtProExchange } from './ccxt-venue';
import { chooseTakerFee } from './fees';
import { marketRules } from './market-rules';
import type { IngestorOptions, VenueSettings } from './options';
import { selectSymbols } from './select-symbols';
import { touchedBand, trackBook } from './side-tracker';
import type { TouchedBand } from './sync-side';
import type { RecordWriter } from './record-writer';
import { VenueStatus } from './venue-status';

/** One book of the venue: its publisher and what ccxt last resolved for it. */
interface BookSlot {
  readonly group: number;
  readonly publisher: BookPublisher;
  /** The ccxt book last published from: a different object means ccxt rebuilt it. */
  published: CcxtBook | null;
  /** The book last resolved, its sides when they were last tracked, and their change bands. */
  seen: CcxtBook | null;
  bids: CcxtBook['bids'] | null;
  asks: CcxtBook['asks'] | null;
  bidBand: TouchedBand | undefined;
  askBand: TouchedBand | undefined;
  /** Resolved since the last flush; receivedAt is the last resolve's clock. */
  pending: boolean;
  receivedAt: number;
}

/**
 * One venue: markets, then one watch loop per subscription group. Book changes are observed by
 * tapping the ws client's resolve (every ccxt venue resolves its live book after applying an
 * update): ccxt's futures are one-shot, so a multi-symbol watch loses the notification of a book
 * that changed while another book's resolve was being handled.
 */
export class VenueRunner {
  private exchange!: CcxtProExchange;
  private status!: VenueStatus;
  private readonly slots = new Map<string, BookSlot>();
  private dirty: BookSlot[] = [];
  private flushScheduled = false;
  /** Set while a bad book forces a re-subscription: nothing is published until the loops retry. */
  private resyncing = false;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly venue: VenueSettings,
    private readonly opts: IngestorOptions,
    /** The ingestor's one queue into the log (shared by every venue). */
    private readonly writes: RecordWriter,
  ) {}

  get exchangeId(): string {
    return this.venue.exchangeId;
  }

  /** Construct the exchange and start in the background; never waits for the venue. */
  start(): void {
    const { exchange, certified } = createVenue(this.venue.exchangeId, this.venue.ccxt);
    this.exchange = exchange;
    this.status = new VenueStatus(this.venue.exchangeId, certified, 1);
    this.tapClients();
    this.loops.push(this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of [...this.wakers]) wake();
    await this.exchange?.close().catch(() => undefined);
    await Promise.all(this.loops);
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
      if (!slot.pending) {
        slot.pending = true;
        this.dirty.push(slot);
      }
    }
    if (this.dirty.length > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(this.flushTask);
    }
  }

  private async run(): Promise<void> {
    const symbols = await this.loadMarkets();
    if (symbols === null) return;
    const size = this.exchange.has.watchOrderBookForSymbols === true ? this.opts.symbolsPerSubscription : 1;
    const groups: string[][] = [];
    for (let i = 0; i < symbols.length; i += size) groups.push(symbols.slice(i, i + size));
    this.status.setGroups(groups.length);
    groups.forEach((group, g) => {
      for (const s of group) {
        const publisher = new BookPublisher(
          this.venue.exchangeId,
          s,
          this.opts.snapshotEvery,
          this.opts.depth,
          this.opts.snapshotEveryMs,
        );
        this.slots.set(s, {
          group: g,
          publisher,
          published: null,
          seen: null,
          bids: null,
          asks: null,
          bidBand: undefined,
          askBand: undefined,
          pending: false,
          receivedAt: 0,
        });
      }
      this.loops.push(this.watchLoop(group, g));
    });
  }

  /** Load markets (retrying while the venue is down) and write market and venue records. */
  private async loadMarkets(): Promise<string[] | null> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        // Plain ws:// URLs (mock venues, private gateways) need ccxt's node http agent loaded first.
        await this.exchange.loadHttpProxyAgent();
        await this.exchange.loadMarkets();
        break;
      } catch (e) {
        this.down(null, `loading markets failed: ${message(e)}`);
        this.opts.logger.debug?.('loading markets failed; retrying', {
          exchangeId: this.venue.exchangeId,
          error: message(e),
        });
        await this.sleep(attempt);
      }
    }
    if (this.stopped) return null;
    const markets = this.exchange.markets ?? {};
    const { symbols, unknown } = selectSymbols(markets, this.opts.assets, this.venue.symbols);
    if (unknown.length > 0)
      this.opts.logger.warn('configured symbols not listed by the venue; skipped', {
        exchangeId: this.venue.exchangeId,
        symbols: unknown,
      });
    const now = this.opts.now();
    const records: EventRecord[] = [];
    const missingFee: string[] = [];
    for (const symbol of symbols) {
      const m = markets[symbol]!;
      const fee = chooseTakerFee(this.venue.exchangeId, m.taker);
      if (fee.rate === null) missingFee.push(symbol);
      const record: MarketRecord = {
        v: 1,
        type: 'market',
        exchangeId: this.venue.exchangeId,
        symbol,
        base: m.base,
        quote: m.quote,
        takerFeeRate: fee.rate,
        ...marketRules(this.exchange, m),
        receivedAt: now,
      };
      records.push(record);
    }
    if (missingFee.length > 0) {
      this.opts.logger.warn('no valid taker fee; market records carry null and the API default applies', {
        exchangeId: this.venue.exchangeId,
        symbols: missingFee,
      });
    }
    if (symbols.length === 0) this.status.down(null, 'no spot markets among the asset universe');
    records.push(this.status.record(now));
    this.writes.push(records);
    this.opts.logger.debug?.('venue markets loaded', {
      exchangeId: this.venue.exchangeId,
      symbols: symbols.length,
    });
    return [...symbols];
  }

  private async watchLoop(symbols: string[], group: number): Promise<void> {
    const limit = this.venue.watchLimit;
    for (let attempt = 0; !this.stopped;) {
      try {
        this.resyncing = false;
        if (symbols.length > 1 || this.exchange.has.watchOrderBookForSymbols === true) {
          await this.exchange.watchOrderBookForSymbols(symbols, limit);
        } else {
          await this.exchange.watchOrderBook(symbols[0]!, limit);
        }
        attempt = 0;
      } catch (e) {
        if (this.stopped) return;
        for (const s of symbols) this.slots.get(s)?.publisher.resync();
        this.down(group, message(e));
        this.opts.logger.debug?.('order book subscription failed; re-subscribing', {
          exchangeId: this.venue.exchangeId,
          symbols,
          error: message(e),
        });
        await this.sleep(attempt++);
      }
    }
  }

  private down(group: number | null, error: string): void {
    if (this.status.down(group, error)) this.writes.push([this.status.record(this.opts.now())]);
  }

  /** Wrap ccxt's client factory so every ws client reports each book it resolves. */
  private tapClients(): void {
    const ex = this.exchange;
    const create = ex.client.bind(ex);
    const tapped = new WeakSet<CcxtClient>();
    ex.client = (url: string): CcxtClient => {
      const client = create(url);
      if (!tapped.has(client)) {
        tapped.add(client);
        const resolve = client.resolve.bind(client);
        client.resolve = (result: unknown, hash?: string): unknown => {
          this.observe(result);
          return resolve(result, hash);
        };
      }
      return client;
    };
  }

  private observe(result: unknown): void {
    if (typeof result !== 'object' || result === null) return;
    const book = result as Partial<CcxtBook>;
    if (typeof book.symbol !== 'string') return;
    const slot = this.slots.get(book.symbol);
    if (slot === undefined || !Array.isArray(book.bids) || !Array.isArray(book.asks)) return;
    if (book !== slot.seen || book.bids !== slot.bids || book.asks !== slot.asks) {
      // A new book or side object: tap it so later changes are banded (side-tracker.ts).
      trackBook(book);
      slot.seen = book as CcxtBook;
      slot.bids = book.bids;
      slot.asks = book.asks;
      slot.bidBand = touchedBand(book.bids);
      slot.askBand = touchedBand(book.asks);
    }
    slot.receivedAt = this.opts.now();
    if (!slot.pending) {
      slot.pending = true;
      this.dirty.push(slot);
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // After ccxt finishes the message (some apply several updates per frame), publish once.
      queueMicrotask(this.flushTask);
    }
  }

  private readonly flushTask = (): void => this.flush();

  private flush(): void {
    this.flushScheduled = false;
    const dirty = this.dirty;
    this.dirty = [];
    const records: EventRecord[] = [];
    for (const slot of dirty) {
      slot.pending = false;
      if (this.resyncing || this.stopped) continue;
      const book = slot.seen!;
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
        if (this.status.groupUp(slot.group)) records.push(this.status.record(receivedAt));
      } else if (out.kind === 'withheld') {
        this.resubscribe(`${pub.symbol}: ${out.fault.replace('_', ' ')} book withheld; re-subscribing`);
      }
    }
    this.writes.push(records);
  }

  private resyncAll(): void {
    for (const slot of this.slots.values()) slot.publisher.resync();
  }

  /** Drop every connection of the venue the way ccxt does on a keepalive timeout; the loops re-subscribe. */
  private resubscribe(reason: string): void {
    if (this.resyncing) return;
    this.resyncing = true;
    this.opts.logger.warn('bad book', { exchangeId: this.venue.exchangeId, reason });
    this.resyncAll();
    this.down(null, reason);
    for (const client of Object.values(this.exchange.clients ?? {})) {
      client.onError(new NetworkError(`${this.venue.exchangeId} ${reason}`));
      void Promise.resolve(client.close()).catch(() => undefined);
    }
  }

  /** Backoff sleep that stop() cuts short. */
  private sleep(attempt: number): Promise<void> {
    const { initialMs, maxMs } = this.opts.backoff;
    const ms = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 20));
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }
}

function message(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
}
