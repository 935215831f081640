import type { EventRecord } from '@app/events';
import { PARKED_PREFIX } from '@app/logging';
import { DDoSProtection, NetworkError, RateLimitExceeded } from 'ccxt';
import { backoffDelay } from './backoff';
import { BookPublisher } from './book-publisher';
import { BookResync, type ResyncContext } from './book-resync';
import { BookSlot } from './book-slot';
import { BookWatchdog } from './book-watchdog';
import { CircuitBreaker } from './breaker';
import { tapExchange } from './ccxt-taps';
import { createVenue, type CcxtBook, type CcxtClient, type CcxtProExchange } from './ccxt-venue';
import { escapeGuard } from './escape-guard';
import { failureKind, messageOf, type FailureKind } from './failure-kind';
import { marketRecords } from './market-records';
import { selectSymbols } from './select-symbols';
import type { IngestorOptions, VenueSettings } from './options';
import type { RecordWriter } from './record-writer';
import { emptyCounters, type VenueCounters, type VenueHealth } from './venue-counters';
import { planSubscriptions, type SubscriptionGroup } from './subscription-plan';
import { VenueStatus } from './venue-status';

/**
 * One venue: markets, then one watch loop per subscription group (docs/venues.md "Resilience").
 * Book changes are observed by tapping the ws client's resolve (every ccxt venue resolves its live
 * book after applying an update): ccxt's futures are one-shot, so a multi-symbol watch loses the
 * notification of a book that changed while another book's resolve was being handled. Nothing on
 * the venue's path may end the process: every rejection is caught here or by the taps
 * (ccxt-taps.ts), and what escapes ccxt anyway reaches the process-wide guard (escape-guard.ts).
 */
export class VenueRunner {
  private exchange!: CcxtProExchange;
  private status!: VenueStatus;
  private breaker!: CircuitBreaker;
  readonly counters: VenueCounters = emptyCounters();
  private readonly slots = new Map<string, BookSlot>();
  /** ccxt symbol -> the slots its book feeds (itself and its aliases). */
  private readonly feeds = new Map<string, BookSlot[]>();
  private groups: SubscriptionGroup[] = [];
  private dirty: BookSlot[] = [];
  private flushScheduled = false;
  private stopped = false;
  private started = false;
  private lastError = '';
  /** Epoch ms before which REST calls wait (a 429/418 Retry-After). */
  private restUntil = 0;
  private readonly loops: Promise<void>[] = [];
  /** Groups whose connection went since their last watch call (their ccxt books are forgotten first). */
  private readonly stale = new Set<number>();
  private readonly wakers = new Set<() => void>();
  private stallTimer: NodeJS.Timeout | null = null;
  private unregister: (() => void) | null = null;
  private resync!: BookResync;
  private watchdog!: BookWatchdog;

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
    const { exchange, certified, sourceFiles } = createVenue(this.venue.exchangeId, this.venue.ccxt);
    this.exchange = exchange;
    this.status = new VenueStatus(this.venue.exchangeId, certified, 1);
    this.breaker = new CircuitBreaker(this.opts.breaker, this.opts.random);
    this.resync = new BookResync(this.resyncContext());
    this.watchdog = new BookWatchdog(
      this.resyncContext(),
      this.resync,
      () => this.breaker.waitMs(this.opts.now()) > 0,
    );
    tapExchange(
      exchange,
      {
        resolved: (result, client) => this.observe(result, client),
        sendFailed: (e, client) => this.contain(e, `send on ${client.url}`, client),
        rateLimited: (status, ms) => this.rateLimited(status, ms),
        restWaitMs: () => Math.max(0, this.restUntil - this.opts.now()),
        handled: this.watchdog.checks
          ? (message, client) => this.watchdog.message(message, client)
          : undefined,
      },
      this.opts.now,
    );
    this.unregister = escapeGuard.register({
      exchangeId: this.venue.exchangeId,
      sourceFiles,
      urls: () => this.urls(),
      contain: (e, origin) => this.contain(e, origin, null),
    });
    this.started = true;
    this.loops.push(this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.stallTimer !== null) clearInterval(this.stallTimer);
    for (const wake of [...this.wakers]) wake();
    await this.exchange?.close().catch(() => undefined);
    await Promise.all(this.loops);
    // Late rejections of a closed venue are still this venue's: unregister only after ccxt settled.
    setTimeout(() => this.unregister?.(), 1_000).unref();
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

  /** The venue's state for /metrics and the summary line. */
  health(): VenueHealth {
    const now = this.opts.now();
    const parkedUntil = this.breaker?.parkedUntil ?? null;
    let good = 0;
    for (const s of this.slots.values()) if (s.good) good++;
    const state = !this.started
      ? 'starting'
      : parkedUntil !== null && parkedUntil > now
        ? 'parked'
        : this.status.isConnected
          ? 'connected'
          : 'connecting';
    return {
      exchangeId: this.venue.exchangeId,
      state,
      parkedUntil: state === 'parked' ? parkedUntil : null,
      books: this.slots.size,
      goodBooks: good,
      counters: { ...this.counters },
    };
  }

  private *urls(): Iterable<string> {
    if (this.exchange === undefined) return;
    yield* Object.keys(this.exchange.clients ?? {});
    yield* urlStrings(this.exchange.urls?.api);
  }

  private async run(): Promise<void> {
    const symbols = await this.loadMarkets();
    if (symbols === null) return;
    const plan = planSubscriptions(symbols, this.venue, this.exchange.has, this.opts.symbolsPerSubscription);
    for (const w of plan.warnings) this.opts.logger.warn(w, { exchangeId: this.venue.exchangeId });
    this.groups = plan.groups;
    this.status.setGroups(this.groups.length);
    for (const g of this.groups) {
      for (const source of g.symbols) {
        for (const symbol of [source, ...(plan.aliasesOf.get(source) ?? [])]) {
          const pub = new BookPublisher(
            this.venue.exchangeId,
            symbol,
            this.opts.snapshotEvery,
            this.opts.depth,
            this.opts.snapshotEveryMs,
          );
          const slot = new BookSlot(symbol, source, g.index, pub);
          this.slots.set(symbol, slot);
          const list = this.feeds.get(source) ?? [];
          list.push(slot);
          this.feeds.set(source, list);
        }
      }
    }
    this.stallTimer = setInterval(
      () => this.watchdog.silence(),
      Math.max(50, Math.min(1_000, this.venue.silenceMs / 4)),
    );
    this.stallTimer.unref();
    for (const g of this.groups) this.loops.push(this.watchLoop(g));
  }

  /** Load markets (retrying while the venue is down) and write market and venue records. */
  private async loadMarkets(): Promise<string[] | null> {
    for (let attempt = 0; !this.stopped; attempt++) {
      await this.admit();
      if (this.stopped) break;
      try {
        // Plain ws:// URLs (mock venues, private gateways) need ccxt's node http agent loaded first.
        await this.exchange.loadHttpProxyAgent();
        await this.exchange.loadMarkets();
        break;
      } catch (e) {
        this.failed(null, `loading markets failed: ${messageOf(e)}`, failureKind(e, 'checksum'), e);
        this.opts.logger.debug?.('loading markets failed; retrying', {
          exchangeId: this.venue.exchangeId,
          error: messageOf(e),
        });
        await this.sleep(this.delay(attempt));
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
    const { records, missingFee } = marketRecords(this.exchange, this.venue.exchangeId, symbols, now);
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

  private async watchLoop(group: SubscriptionGroup): Promise<void> {
    const limit = this.venue.watchLimit;
    this.stale.add(group.index);
    for (let attempt = 0; !this.stopped;) {
      await this.admit();
      if (this.stopped) return;
      if (this.stale.delete(group.index)) {
        // The silence timer counts from the (re)subscription until the first book arrives.
        this.heardNow(group.symbols);
        // Its connection went: ccxt rebuilds these books from the venue's fresh snapshots.
        this.resync.forget(group.symbols);
      }
      try {
        if (group.multi) await this.exchange.watchOrderBookForSymbols(group.symbols, limit);
        else await this.exchange.watchOrderBook(group.symbols[0]!, limit);
        attempt = 0;
      } catch (e) {
        if (this.stopped) return;
        const kind = failureKind(e, this.venue.rule.checksumError);
        if (kind === 'unsubscribed') {
          for (const s of group.symbols) if (this.resync.unwatching.has(s)) this.resync.watchAlone(s);
          continue;
        }
        if (kind === 'gap' || kind === 'checksum') {
          this.counters[kind === 'gap' ? 'gaps' : 'checksumFailures']++;
          this.resync.integrityFailed(group, e);
          await this.sleep(this.delay(attempt++));
          continue;
        }
        for (const s of group.symbols) for (const slot of this.feeds.get(s) ?? []) slot.resync();
        this.stale.add(group.index);
        this.failed(group.index, messageOf(e), kind, e);
        this.opts.logger.debug?.('order book subscription failed; re-subscribing', {
          exchangeId: this.venue.exchangeId,
          symbols: group.symbols,
          error: messageOf(e),
        });
        await this.sleep(this.delay(attempt++));
      }
    }
  }

  /** The pause before retry `attempt`: full jitter, never shorter than a pending Retry-After. */
  private delay(attempt: number): number {
    return backoffDelay(
      attempt,
      this.opts.backoff,
      this.opts.random,
      Math.max(0, this.restUntil - this.opts.now()),
    );
  }

  /** Wait while the venue is parked (circuit breaker) or a Retry-After is pending. */
  private async admit(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const wait = Math.max(this.breaker.waitMs(this.opts.now()), this.restUntil - this.opts.now());
      if (wait <= 0) return;
      await this.sleep(wait);
    }
  }

  /** A subscription (or markets) failed: venue record, breaker, counters. */
  private failed(group: number | null, error: string, kind: FailureKind, e: unknown): void {
    if (this.breaker.waitMs(this.opts.now()) > 0) return;
    this.counters.failures++;
    // REST 429/418 answers are counted by the tap; this counts refusals seen elsewhere (a ws upgrade).
    if (kind === 'rate-limited' && !(e instanceof RateLimitExceeded || e instanceof DDoSProtection))
      this.counters.rateLimited++;
    this.lastError = error;
    const now = this.opts.now();
    if (this.breaker.failure(now)) {
      this.counters.parks++;
      const until = new Date(this.breaker.parkedUntil!).toISOString();
      const text = `${PARKED_PREFIX}${until} after ${this.breaker.failuresInARow} failures in a row: ${error}`;
      this.opts.logger.warn('venue parked (circuit breaker open); it will be probed', {
        exchangeId: this.venue.exchangeId,
        until,
        error,
      });
      this.down(null, text);
      this.resync.allConnections(`${this.venue.exchangeId} parked`);
      return;
    }
    this.down(group, error);
  }

  private rateLimited(status: number, ms: number | null): void {
    this.counters.rateLimited++;
    const wait = ms ?? backoffDelay(4, this.opts.backoff, this.opts.random, this.opts.backoff.initialMs);
    this.restUntil = Math.max(this.restUntil, this.opts.now() + wait);
    this.opts.logger.warn('venue answered REST with a rate limit; waiting', {
      exchangeId: this.venue.exchangeId,
      status,
      retryAfterMs: ms,
    });
  }

  /** An error that escaped ccxt's own handling on this venue: count, log, reconnect the venue. */
  private contain(e: unknown, origin: string, client: CcxtClient | null): void {
    this.counters.escapes++;
    this.opts.logger.warn('venue error escaped ccxt; contained', {
      exchangeId: this.venue.exchangeId,
      origin,
      error: messageOf(e),
    });
    if (this.stopped) return;
    const reason = new NetworkError(`${this.venue.exchangeId} ${messageOf(e)}`);
    if (client !== null) client.onError(reason);
    else this.resync.allConnections(reason.message);
  }

  private down(group: number | null, error: string): void {
    if (this.status.down(group, error)) this.writes.push([this.status.record(this.opts.now())]);
  }

  private heardNow(symbols: readonly string[]): void {
    const t = this.opts.clock();
    for (const s of symbols) for (const slot of this.feeds.get(s) ?? []) slot.heardAt = t;
  }

  private observe(result: unknown, client: CcxtClient): void {
    if (typeof result !== 'object' || result === null) return;
    const book = result as Partial<CcxtBook>;
    if (typeof book.symbol !== 'string' || !Array.isArray(book.bids) || !Array.isArray(book.asks)) return;
    const feeds = this.feeds.get(book.symbol);
    if (feeds === undefined) return;
    const receivedAt = this.opts.now();
    const heardAt = this.opts.clock();
    for (const slot of feeds)
      if (slot.observe(book as CcxtBook, client, receivedAt, heardAt)) this.markDirty(slot);
  }

  private markDirty(slot: BookSlot): void {
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
        this.breaker.success();
        if (this.status.groupUp(slot.group)) records.push(this.status.record(receivedAt));
      } else if (out.kind === 'unchanged') {
        slot.good = true;
        slot.resyncSince = null;
      } else {
        this.counters.badBooks++;
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

  /** What the resync helper reads and changes of this runner. */
  private resyncContext(): ResyncContext {
    return {
      exchange: this.exchange,
      venue: this.venue,
      opts: this.opts,
      counters: this.counters,
      slots: this.slots,
      feeds: this.feeds,
      groups: () => this.groups,
      stale: this.stale,
      stopped: () => this.stopped,
    };
  }

  /** A sleep that stop() cuts short. */
  private sleep(ms: number): Promise<void> {
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

/** Every string found in ccxt's `urls.api` (nested objects of URLs). */
function* urlStrings(value: unknown, depth = 0): Iterable<string> {
  if (typeof value === 'string') yield value;
  else if (typeof value === 'object' && value !== null && depth < 4)
    for (const v of Object.values(value)) yield* urlStrings(v, depth + 1);
}
