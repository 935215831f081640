import { sleep } from '@app/retry';
import { BookFlusher } from './book-flusher';
import { BookPublisher } from './book-publisher';
import { BookResync, type ResyncContext } from './book-resync';
import { BookSlot } from './book-slot';
import { BookWatchdog } from './book-watchdog';
import { CircuitBreaker } from './breaker';
import { tapExchange } from './ccxt-taps';
import { createVenue, type CcxtProExchange } from './ccxt-venue';
import { escapeGuard } from './escape-guard';
import { failureKind, messageOf } from './failure-kind';
import { marketRecords } from './market-records';
import { selectSymbols } from './select-symbols';
import type { IngestorOptions, VenueSettings } from './options';
import type { RecordWriter } from './record-writer';
import { emptyCounters, type VenueCounters, type VenueHealth } from './venue-counters';
import { planSubscriptions, type SubscriptionGroup } from './subscription-plan';
import { VenueFailures } from './venue-failures';
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
  private stopped = false;
  private started = false;
  private readonly loops: Promise<void>[] = [];
  /** Groups whose connection went since their last watch call (their ccxt books are forgotten first). */
  private readonly stale = new Set<number>();
  /** Aborted by stop(): cuts every pause short. */
  private readonly stopping = new AbortController();
  private stallTimer: NodeJS.Timeout | null = null;
  private unregister: (() => void) | null = null;
  private resync!: BookResync;
  private watchdog!: BookWatchdog;
  private flusher!: BookFlusher;
  private failures!: VenueFailures;

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
    this.failures = new VenueFailures({
      exchangeId: this.venue.exchangeId,
      opts: this.opts,
      writes: this.writes,
      counters: this.counters,
      breaker: this.breaker,
      status: this.status,
      resync: this.resync,
      stopped: () => this.stopped,
    });
    this.flusher = new BookFlusher({
      exchangeId: this.venue.exchangeId,
      opts: this.opts,
      writes: this.writes,
      counters: this.counters,
      feeds: this.feeds,
      breaker: this.breaker,
      status: this.status,
      resync: this.resync,
      stopped: () => this.stopped,
    });
    tapExchange(
      exchange,
      {
        resolved: (result, client) => this.flusher.observe(result, client),
        sendFailed: (e, client) => this.failures.contain(e, `send on ${client.url}`, client),
        rateLimited: (status, ms) => this.failures.rateLimited(status, ms),
        restWaitMs: () => this.failures.restWaitMs(),
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
      contain: (e, origin) => this.failures.contain(e, origin, null),
    });
    this.started = true;
    this.loops.push(this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.stallTimer !== null) clearInterval(this.stallTimer);
    this.stopping.abort();
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
      this.flusher.markDirty(slot);
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
    const backoff = this.failures.backoff();
    while (!this.stopped) {
      await this.admit();
      if (this.stopped) break;
      try {
        // Plain ws:// URLs (mock venues, private gateways) need ccxt's node http agent loaded first.
        await this.exchange.loadHttpProxyAgent();
        await this.exchange.loadMarkets();
        break;
      } catch (e) {
        this.failures.failed(null, `loading markets failed: ${messageOf(e)}`, failureKind(e, 'checksum'), e);
        this.opts.logger.debug?.('loading markets failed; retrying', {
          exchangeId: this.venue.exchangeId,
          error: messageOf(e),
        });
        await this.sleep(this.failures.delay(backoff));
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
    const backoff = this.failures.backoff();
    while (!this.stopped) {
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
        backoff.reset();
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
          await this.sleep(this.failures.delay(backoff));
          continue;
        }
        for (const s of group.symbols) for (const slot of this.feeds.get(s) ?? []) slot.resync();
        this.stale.add(group.index);
        this.failures.failed(group.index, messageOf(e), kind, e);
        this.opts.logger.debug?.('order book subscription failed; re-subscribing', {
          exchangeId: this.venue.exchangeId,
          symbols: group.symbols,
          error: messageOf(e),
        });
        await this.sleep(this.failures.delay(backoff));
      }
    }
  }

  /** Wait while the venue is parked (circuit breaker) or a Retry-After is pending. */
  private async admit(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const wait = Math.max(this.breaker.waitMs(this.opts.now()), this.failures.restWaitMs());
      if (wait <= 0) return;
      await this.sleep(wait);
    }
  }

  private heardNow(symbols: readonly string[]): void {
    const t = this.opts.clock();
    for (const s of symbols) for (const slot of this.feeds.get(s) ?? []) slot.heardAt = t;
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
    return sleep(ms, this.stopping.signal);
  }
}

/** Every string found in ccxt's `urls.api` (nested objects of URLs). */
function* urlStrings(value: unknown, depth = 0): Iterable<string> {
  if (typeof value === 'string') yield value;
  else if (typeof value === 'object' && value !== null && depth < 4)
    for (const v of Object.values(value)) yield* urlStrings(v, depth + 1);
}
