import { errorMessage } from '@app/retry';
import type { EventEmitter } from 'node:events';
import type { BookSlot } from './book-slot';
import type { BookSlots } from './book-slots';
import type { CcxtProExchange } from './ccxt-venue';
import { messageOf } from './failure-kind';
import type { IngestorOptions, VenueSettings } from './options';
import type { SubscriptionGroup } from './subscription-plan';
import type { VenueCounters } from './venue-counters';
import type { BookEvents } from './venue-events';

/**
 * Bringing bad books back from the venue's own snapshot, by the smallest unit the venue allows
 * (its rule's `resync`):
 * - `book`: unsubscribe that book alone (ccxt unWatchOrderBook, given the subscription's limit)
 *   and subscribe it again; for Binance's family ccxt's own gap reaction instead (drop the book
 *   and its subscription, subscribe it alone: ccxt fetches its REST snapshot), because ccxt's
 *   unsubscribe names another connection than the group's;
 * - `connection`: close the connection that carried the book; the loops of the books on it
 *   subscribe again. Where ccxt opens one connection per book, that is the book.
 * A book unit that does not finish within the silence timeout falls back to the connection.
 * Connections are closed by the venue's connection (told through `events`).
 */
export class BookResync {
  readonly counters: Pick<VenueCounters, 'bookResyncs' | 'connectionResyncs'> = {
    bookResyncs: 0,
    connectionResyncs: 0,
  };
  private stopped = false;

  /**
   * Books being unsubscribed alone. Their group's watch is rejected as unsubscribed first: the loop
   * subscribes these alone before watching the group again, or ccxt would send the group's whole
   * request (okx, kucoin) and the venue would resend every book of it.
   */
  readonly unwatching = new Set<string>();

  constructor(
    private readonly exchange: CcxtProExchange,
    private readonly venue: VenueSettings,
    private readonly opts: Pick<IngestorOptions, 'clock' | 'logger'>,
    private readonly slots: BookSlots,
    private readonly events: EventEmitter<BookEvents>,
  ) {}

  /** Resyncs under way end quietly: the venue stopped. */
  stop(): void {
    this.stopped = true;
  }

  /** Resynchronise `slot`'s book (`escalate`: straight to its connection). */
  book(slot: BookSlot, reason: string, escalate = false): void {
    const { exchange, venue } = this;
    for (const s of this.slots.fedBy(slot.source)) s.resync();
    const target = this.slots.get(slot.source) ?? slot;
    target.resyncSince = this.opts.clock();
    const group = this.slots.groups[target.group];
    const unit = escalate || exchange.has.unWatchOrderBook !== true ? 'connection' : venue.rule.resync;
    if (unit === 'connection') return this.connection(target, reason);
    this.counters.bookResyncs++;
    if (venue.rule.bookResync === 'drop') {
      // Binance's family: what ccxt does itself on a U/u gap (pro/binance.js handleOrderBook), the
      // book and its subscription dropped, then the book subscribed alone on the same connection.
      delete exchange.orderbooks?.[target.source];
      const subs = (target.client as unknown as { subscriptions?: Record<string, unknown> } | null)
        ?.subscriptions;
      if (subs !== undefined) delete subs[`orderbook::${target.source}`];
      this.watchAlone(target.source);
      return;
    }
    const limit = venue.watchLimit;
    this.unwatching.add(target.source);
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), venue.silenceMs).unref());
    const unwatch = exchange.unWatchOrderBook(target.source, limit === undefined ? {} : { limit }).then(
      () => 'done' as const,
      (e: unknown) => messageOf(e),
    );
    void Promise.race([unwatch, timeout]).then((outcome) => {
      this.unwatching.delete(target.source);
      if (this.stopped) return;
      if (outcome === 'done') {
        // A single-book loop subscribes again by itself (its watch was rejected as unsubscribed).
        if (group?.multi === true) this.watchAlone(target.source);
        return;
      }
      this.opts.logger.debug?.('unsubscribing one book failed; closing its connection', {
        exchangeId: venue.exchangeId,
        symbol: target.source,
        outcome,
      });
      this.connection(target, reason);
    });
  }

  /** Have the connection that carried `slot`'s book closed (every connection when none is known yet). */
  connection(slot: BookSlot, reason: string): void {
    const { exchangeId } = this.venue;
    this.counters.connectionResyncs++;
    const client = slot.client;
    // The connection that last carried the book may be gone already (the book went silent on its
    // successor, which never delivered it): then every connection of the venue is closed.
    if (client === null || !Object.values(this.exchange.clients ?? {}).includes(client)) {
      this.events.emit('closeAllConnections', `${exchangeId} ${reason}`);
      return;
    }
    const groups = new Set<number>();
    for (const s of this.slots.values())
      if (s.client === client) {
        s.resync();
        if (!s.isAlias) groups.add(s.group);
      }
    this.events.emit('closeConnection', client, groups, `${exchangeId} ${reason}`);
  }

  /**
   * Drop ccxt's books of `symbols` after their connection went: several ccxt venues (bitfinex)
   * build a book only when none exists, so a re-subscription's snapshot would be applied as a
   * change to the old one. Without it ccxt starts each from the venue's fresh snapshot.
   */
  forget(symbols: readonly string[]): void {
    const books = this.exchange.orderbooks;
    if (books === undefined) return;
    const live = new Set(Object.values(this.exchange.clients ?? {}));
    for (const s of symbols) {
      const client = this.slots.get(s)?.client ?? null;
      // Only a book whose connection ccxt dropped: one on a live connection still gets its changes.
      if (client !== null && !live.has(client)) delete books[s];
    }
  }

  /**
   * A sequence gap or checksum mismatch rejected a group's watch: resync only the books it hit.
   * Books ccxt dropped itself (binance, bitfinex, gate) are subscribed again alone; books ccxt
   * kept although it named them (cryptocom and htx throw and keep the broken book) are resynced
   * by the venue's unit. Without either clue every book of the group is resynced.
   */
  integrityFailed(group: SubscriptionGroup, e: unknown): void {
    const text = errorMessage(e);
    const books = this.exchange.orderbooks ?? {};
    const dropped = group.symbols.filter((s) => books[s] === undefined);
    const named = group.symbols.filter((s) => books[s] !== undefined && text.includes(`${s} :`));
    const hit = dropped.length + named.length > 0 ? [...dropped, ...named] : group.symbols;
    this.opts.logger.debug?.('book integrity failed; resynchronising it', {
      exchangeId: this.venue.exchangeId,
      symbols: hit,
      error: messageOf(e),
    });
    for (const s of dropped) {
      for (const slot of this.slots.fedBy(s)) slot.resync();
      if (group.multi && dropped.length < group.symbols.length) this.watchAlone(s);
    }
    for (const s of hit) {
      if (dropped.includes(s)) continue;
      const slot = this.slots.get(s);
      if (slot !== undefined) this.book(slot, `${s}: ${messageOf(e)}`);
    }
  }

  /** Subscribe one book of a multi-symbol group by itself (ccxt subscribes only what is missing). */
  watchAlone(symbol: string): void {
    const { exchange, venue } = this;
    if (venue.rule.bookResync === 'drop') sameStream(exchange, this.slots.groups, symbol);
    exchange.watchOrderBookForSymbols([symbol], venue.watchLimit).catch((e: unknown) => {
      this.opts.logger.debug?.('single-book resubscription failed', {
        exchangeId: venue.exchangeId,
        symbol,
        error: messageOf(e),
      });
    });
  }
}

/**
 * Binance assigns each distinct watchOrderBookForSymbols call a stream (a connection) of its own
 * (pro/binance.js stream()): a book subscribed alone would land on another connection than its
 * group, which keeps sending its changes. Name the group's stream for the single book.
 */
function sameStream(exchange: CcxtProExchange, groups: readonly SubscriptionGroup[], symbol: string): void {
  const group = groups.find((g) => g.symbols.includes(symbol));
  const options = (
    exchange as unknown as { options?: { streamBySubscriptionsHash?: Record<string, string> } }
  ).options;
  const streams = options?.streamBySubscriptionsHash;
  if (group === undefined || streams === undefined) return;
  const stream = streams[`multipleOrderbook::${group.symbols.join(',')}`];
  if (stream !== undefined) streams[`multipleOrderbook::${symbol}`] = stream;
}
