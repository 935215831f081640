import { basename } from 'node:path';
import type { Static } from '@sinclair/typebox';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import type { BookCache, BookSideView } from '@app/books';
import { byCodeUnit } from '@app/events';
import { EventLog } from '@app/event-log';
import { Clock } from '../clock';
import { isFresh } from '../health/freshness';
import { BookFeed, type FeedStatus } from '@app/live-feed';
import { booksAt, logHorizon } from '@app/history';
import { SERVER_CONFIG } from '../tokens';
import type { Assert, SameShape } from '../docs/result-schema';
import type { OrderBookSchema, StorageStatusSchema, VenueStatusSchema } from '../docs/schemas';

export interface LevelJson {
  price: number;
  amount: number;
}

/** Spec 2.7. */
export interface OrderBookJson {
  exchangeId: string;
  symbol: string;
  bids: LevelJson[];
  asks: LevelJson[];
  exchangeTimestamp: number | null;
  receivedAt: number;
  sequence: number;
}

/** Spec 2.8 venue status. */
export interface VenueStatusJson {
  exchangeId: string;
  connected: boolean;
  lastUpdateAt: number | null;
  updateCount: number;
  reconnectCount: number;
  lastError: string | null;
}

/** The event log's condition as /exchanges/status shows it (issue 15). */
export interface StorageStatusJson {
  status: FeedStatus;
  damagedEntries: number;
  damage: {
    topic: string;
    partition: number;
    fromOffset: number;
    toOffset: number;
    file: string;
    position: number;
    reason: string;
  }[];
  problems: string[];
  booksNotRebuilt: number;
  marketsWithheld: string[];
  horizon: number | null;
}

/** Compile-time proof that the documents' schemas (docs/schemas.ts) are the shapes built here. */
export type MarketSchemaMatches = [
  Assert<SameShape<Static<typeof OrderBookSchema>, OrderBookJson>>,
  Assert<SameShape<Static<typeof VenueStatusSchema>, VenueStatusJson>>,
  Assert<SameShape<Static<typeof StorageStatusSchema>, StorageStatusJson>>,
];

/** How long a horizon read is reused (status is public: its reads must not follow each request). */
const HORIZON_CACHE_MS = 5_000;

/** Read-only snapshots of the cache for the market endpoints. */
@Injectable()
export class MarketService {
  private readonly staleBookMs: number;

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(EventLog) private readonly log: EventLog,
  ) {
    this.staleBookMs = config.routing.staleBookMs;
  }

  orderBook(exchangeId: string, symbol: string): OrderBookJson | null {
    return bookJson(exchangeId, symbol, this.feed.cache.book(exchangeId, symbol));
  }

  /**
   * The book as it was at `asOf` (docs/api.md "asOf"), rebuilt from the log: `book` is null when
   * the venue had no snapshot of it then; an error when asOf is in the future or older than the log.
   */
  async orderBookAsOf(
    exchangeId: string,
    symbol: string,
    asOf: number,
  ): Promise<{ ok: true; book: OrderBookJson | null } | { ok: false; error: string }> {
    const p = this.feed.positions();
    const upTo = { books: p.books ?? [], venues: p.venues ?? [] };
    const at = await booksAt(this.log, upTo, asOf, this.clock.now(), new Set([symbol]));
    if (!at.ok) return at;
    const { cache } = at;
    return { ok: true, book: bookJson(exchangeId, symbol, cache.book(exchangeId, symbol)) };
  }

  /** Unified symbols with at least one fresh, in-sync book, sorted (clarifications 12). */
  symbols(): string[] {
    const now = this.clock.now();
    const fresh = new Set<string>();
    for (const book of this.feed.cache.allBooks()) {
      if (isFresh(book, now, this.staleBookMs)) fresh.add(book.symbol);
    }
    return [...fresh].sort(byCodeUnit);
  }

  venues(): VenueStatusJson[] {
    return this.feed.cache.venueStates().map((v) => ({
      exchangeId: v.exchangeId,
      connected: v.connected,
      lastUpdateAt: v.lastUpdateAt,
      updateCount: v.updateCount,
      reconnectCount: v.reconnectCount,
      lastError: v.lastError,
    }));
  }

  private horizonRead: { at: number; value: Promise<number | null> } | null = null;

  /** The retention horizon (logHorizon), read at most every HORIZON_CACHE_MS; null when unknown. */
  private horizon(): Promise<number | null> {
    const now = performance.now();
    if (this.horizonRead === null || now - this.horizonRead.at > HORIZON_CACHE_MS)
      this.horizonRead = {
        at: now,
        value: logHorizon(this.log).then(
          (h) => h.at,
          () => null,
        ),
      };
    return this.horizonRead.value;
  }

  /** What the storage layer found wrong, for /exchanges/status (counts, and the first findings). */
  async storage(): Promise<StorageStatusJson> {
    const horizon = await this.horizon();
    const h = this.feed.health();
    return {
      status: h.status,
      damagedEntries: h.log.damagedEntries,
      damage: h.log.damage.slice(0, 20).map((d) => ({
        topic: d.topic,
        partition: d.partition,
        fromOffset: d.fromOffset,
        toOffset: d.toOffset,
        // The file's name only: a public answer does not reveal the server's paths.
        file: basename(d.file),
        position: d.position,
        reason: d.reason,
      })),
      problems: h.log.problems.slice(0, 20),
      booksNotRebuilt: h.booksNotRebuilt.length,
      // `exchangeId symbol`, the first 100.
      marketsWithheld: h.listingsWithheld.slice(0, 100).map((l) => l.replace('|', ' ')),
      horizon,
    };
  }
}

function bookJson(
  exchangeId: string,
  symbol: string,
  book: ReturnType<BookCache['book']>,
): OrderBookJson | null {
  // A book that has never had a snapshot holds nothing worth showing.
  if (book === undefined || book.sequence < 0) return null;
  return {
    exchangeId,
    symbol,
    bids: levels(book.bids),
    asks: levels(book.asks),
    exchangeTimestamp: book.exchangeTimestamp,
    receivedAt: book.receivedAt,
    sequence: book.sequence,
  };
}

function levels(side: BookSideView): LevelJson[] {
  const out: LevelJson[] = new Array<LevelJson>(side.count);
  for (let i = 0; i < side.count; i++) out[i] = { price: side.price(i), amount: side.amount(i) };
  return out;
}
