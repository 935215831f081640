import type { EventRecord } from '@app/events';
import { sleep } from '@app/retry';
import { NetworkError } from 'ccxt';
import { EventEmitter } from 'node:events';
import { tapExchange } from './ccxt-taps';
import type { CcxtClient, CcxtProExchange } from './ccxt-venue';
import { escapeGuard } from './escape-guard';
import { failureKind, messageOf, type FailureKind } from './failure-kind';
import { marketRecords } from './market-records';
import type { IngestorOptions, VenueSettings } from './options';
import type { RecordWriter } from './record-writer';
import { selectSymbols } from './select-symbols';
import { planSubscriptions, type SubscriptionGroup } from './subscription-plan';
import { VenueFailures } from './venue-failures';
import type { ConnectionEvents } from './venue-events';

/**
 * A venue's connection (docs/venues.md "Resilience"): markets, then one watch loop per
 * subscription group, each with its backoff, behind the circuit breaker and the Retry-After
 * (venue-failures.ts). Book changes are observed by tapping the ws client's resolve (every ccxt
 * venue resolves its live book after applying an update): ccxt's futures are one-shot, so a
 * multi-symbol watch loses the notification of a book that changed while another book's resolve
 * was being handled. Nothing on the venue's path may end the process: every rejection is caught
 * here or by the taps (ccxt-taps.ts), and what escapes ccxt anyway reaches the process-wide guard
 * (escape-guard.ts). It tells what happened through `events`; it hears of good books and of
 * connections to close through its methods.
 */
export class VenueConnection {
  readonly events = new EventEmitter<ConnectionEvents>();
  readonly failures: VenueFailures;
  private groups: readonly SubscriptionGroup[] = [];
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  /** Groups whose connection went since their last watch call (their ccxt books are forgotten first). */
  private readonly stale = new Set<number>();
  /** Aborted by stop(): cuts every pause short. */
  private readonly stopping = new AbortController();
  private unregister: (() => void) | null = null;

  constructor(
    private readonly exchange: CcxtProExchange,
    certified: boolean,
    private readonly venue: VenueSettings,
    private readonly opts: IngestorOptions,
    private readonly writes: RecordWriter,
  ) {
    this.failures = new VenueFailures(venue.exchangeId, certified, opts, writes);
  }

  /** Tap the exchange and start in the background (listeners of `handled` are added before). */
  start(sourceFiles: readonly string[]): void {
    const { failures, events } = this;
    const handled = events.listenerCount('handled') > 0;
    tapExchange(
      this.exchange,
      {
        resolved: (result, client) => events.emit('resolved', result, client),
        sendFailed: (e, client) => this.contain(e, `send on ${client.url}`, client),
        rateLimited: (status, ms) => failures.rateLimited(status, ms),
        restWaitMs: () => failures.restWaitMs(),
        handled: handled ? (message, client) => events.emit('handled', message, client) : undefined,
      },
      this.opts.now,
    );
    this.unregister = escapeGuard.register({
      exchangeId: this.venue.exchangeId,
      sourceFiles,
      urls: () => this.urls(),
      contain: (e, origin) => this.contain(e, origin, null),
    });
    this.loops.push(this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.exchange.close().catch(() => undefined);
    await Promise.all(this.loops);
    // Late rejections of a closed venue are still this venue's: unregister only after ccxt settled.
    setTimeout(() => this.unregister?.(), 1_000).unref();
  }

  /** A good book of `group` went into `batch` (the breaker closes; the venue record may follow). */
  published(group: number, receivedAt: number, batch: EventRecord[]): void {
    const parked = this.failures.breaker.parkedUntil !== null;
    this.failures.published(group, receivedAt, batch);
    if (parked) this.events.emit('unparked');
  }

  /** Close `client` the way ccxt fails a keepalive timeout; the loops of `groups` re-subscribe. */
  close(client: CcxtClient, groups: ReadonlySet<number>, reason: string): void {
    for (const g of groups) this.stale.add(g);
    fail(client, reason);
  }

  /** Close every connection of the venue; every loop re-subscribes. */
  closeAll(reason: string): void {
    for (const g of this.groups) this.stale.add(g.index);
    for (const client of Object.values(this.exchange.clients ?? {})) fail(client, reason);
  }

  private *urls(): Iterable<string> {
    yield* Object.keys(this.exchange.clients ?? {});
    yield* urlStrings(this.exchange.urls?.api);
  }

  /** An error that escaped ccxt's own handling on this venue: count, log, reconnect the venue. */
  private contain(e: unknown, origin: string, client: CcxtClient | null): void {
    this.failures.escaped(e, origin);
    if (this.stopped) return;
    const reason = new NetworkError(`${this.venue.exchangeId} ${messageOf(e)}`);
    if (client !== null) client.onError(reason);
    else this.closeAll(reason.message);
  }

  /** A subscription (or markets) failed; a venue it parks has every connection closed. */
  private failed(group: number | null, error: string, kind: FailureKind, e: unknown): void {
    if (!this.failures.failed(group, error, kind, e)) return;
    this.events.emit('parked', this.failures.breaker.parkedUntil!);
    this.closeAll(`${this.venue.exchangeId} parked`);
  }

  private async run(): Promise<void> {
    const symbols = await this.loadMarkets();
    if (symbols === null) return;
    const plan = planSubscriptions(symbols, this.venue, this.exchange.has, this.opts.symbolsPerSubscription);
    for (const w of plan.warnings) this.opts.logger.warn(w, { exchangeId: this.venue.exchangeId });
    this.groups = plan.groups;
    this.failures.status.setGroups(this.groups.length);
    this.events.emit('planned', plan);
    for (const g of this.groups) this.loops.push(this.watchLoop(g));
  }

  /** Load markets (retrying while the venue is down) and write market and venue records. */
  private async loadMarkets(): Promise<string[] | null> {
    const { exchange, venue, opts } = this;
    const backoff = this.failures.backoff();
    while (!this.stopped) {
      await this.admit();
      if (this.stopped) break;
      try {
        // Plain ws:// URLs (mock venues, private gateways) need ccxt's node http agent loaded first.
        await exchange.loadHttpProxyAgent();
        await exchange.loadMarkets();
        break;
      } catch (e) {
        this.failed(null, `loading markets failed: ${messageOf(e)}`, failureKind(e, 'checksum'), e);
        opts.logger.debug?.('loading markets failed; retrying', {
          exchangeId: venue.exchangeId,
          error: messageOf(e),
        });
        await this.sleep(this.failures.delay(backoff));
      }
    }
    if (this.stopped) return null;
    const { symbols, unknown } = selectSymbols(exchange.markets ?? {}, opts.assets, venue.symbols);
    if (unknown.length > 0)
      opts.logger.warn('configured symbols not listed by the venue; skipped', {
        exchangeId: venue.exchangeId,
        symbols: unknown,
      });
    const now = opts.now();
    const { records, missingFee } = marketRecords(exchange, venue.exchangeId, symbols, now);
    if (missingFee.length > 0) {
      opts.logger.warn('no valid taker fee; market records carry null and the API default applies', {
        exchangeId: venue.exchangeId,
        symbols: missingFee,
      });
    }
    const { status } = this.failures;
    if (symbols.length === 0) status.down(null, 'no spot markets among the asset universe');
    records.push(status.record(now));
    this.writes.push(records);
    opts.logger.debug?.('venue markets loaded', { exchangeId: venue.exchangeId, symbols: symbols.length });
    return [...symbols];
  }

  private async watchLoop(group: SubscriptionGroup): Promise<void> {
    const limit = this.venue.watchLimit;
    this.stale.add(group.index);
    const backoff = this.failures.backoff();
    while (!this.stopped) {
      await this.admit();
      if (this.stopped) return;
      if (this.stale.delete(group.index)) this.events.emit('subscribing', group);
      try {
        if (group.multi) await this.exchange.watchOrderBookForSymbols(group.symbols, limit);
        else await this.exchange.watchOrderBook(group.symbols[0]!, limit);
        backoff.reset();
      } catch (e) {
        if (this.stopped) return;
        const kind = failureKind(e, this.venue.rule.checksumError);
        if (kind === 'unsubscribed') {
          this.events.emit('unsubscribed', group);
          continue;
        }
        if (kind === 'gap' || kind === 'checksum') {
          this.events.emit('integrityFailed', group, kind, e);
          await this.sleep(this.failures.delay(backoff));
          continue;
        }
        this.events.emit('groupLost', group);
        this.stale.add(group.index);
        this.failed(group.index, messageOf(e), kind, e);
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
      const wait = Math.max(this.failures.breaker.waitMs(this.opts.now()), this.failures.restWaitMs());
      if (wait <= 0) return;
      await this.sleep(wait);
    }
  }

  /** A sleep that stop() cuts short. */
  private sleep(ms: number): Promise<void> {
    return sleep(ms, this.stopping.signal);
  }
}

function fail(client: CcxtClient, reason: string): void {
  client.onError(new NetworkError(reason));
  void Promise.resolve(client.close()).catch(() => undefined);
}

/** Every string found in ccxt's `urls.api` (nested objects of URLs). */
function* urlStrings(value: unknown, depth = 0): Iterable<string> {
  if (typeof value === 'string') yield value;
  else if (typeof value === 'object' && value !== null && depth < 4)
    for (const v of Object.values(value)) yield* urlStrings(v, depth + 1);
}
