import { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/event-log';
import type { IngestorLogger, VenueHealth } from '@app/venues';

type Fields = Readonly<Record<string, unknown>>;

/** Errors kept per venue (distinct texts, first seen first). */
const MAX_ERRORS = 10;

/** What one venue did during a check, as its records and the ingestor's log lines tell it. */
export interface VenueObservation {
  readonly exchangeId: string;
  /** Market records: the venue's markets in the asset universe (or the configured symbols it lists). */
  readonly markets: readonly string[];
  /** Symbols that published at least one book. */
  readonly booksLive: readonly string[];
  /** Milliseconds from the start of the check to the venue's first book record; null = none. */
  readonly firstBookMs: number | null;
  /** Book records after the first one, per second of the time since it. */
  readonly updatesPerSecond: number;
  /** Median levels per side over the venue's books at the end (what the API would hold). */
  readonly depth: { readonly bids: number; readonly asks: number } | null;
  readonly gaps: number;
  readonly checksumFailures: number;
  readonly badBooks: number;
  readonly stalls: number;
  /** Connection losses of a connected venue (venue records' reconnectCount). */
  readonly reconnects: number;
  readonly connected: boolean;
  /** The venue's failures in its own words (ccxt's messages), distinct, oldest first. */
  readonly errors: readonly string[];
}

interface Tally {
  readonly markets: Set<string>;
  readonly booksLive: Set<string>;
  firstBookAt: number | null;
  bookRecords: number;
  reconnects: number;
  connected: boolean;
  readonly errors: string[];
}

/**
 * The check's sink and logger: the Ingestor writes its records here instead of the event log, and
 * logs here, so the check sees exactly what a deployment would (markets, books, venue states,
 * every re-subscription and its reason). Books are folded as the API folds them. Gaps, checksum
 * failures, withheld books and silent books are the ingestor's own counters (Ingestor.health(),
 * the same numbers /metrics serves).
 */
export class VenueProbe implements RecordSink, IngestorLogger {
  private readonly tallies = new Map<string, Tally>();
  private readonly cache = new BookCache();

  constructor(
    private readonly startedAt: number,
    private readonly now: () => number,
  ) {}

  write(records: readonly EventRecord[]): Promise<void> {
    const at = this.now();
    for (const r of records) {
      this.cache.apply(r);
      const t = this.tally(r.exchangeId);
      if (r.type === 'market') t.markets.add(r.symbol);
      else if (r.type === 'venue') {
        t.connected = r.connected;
        t.reconnects = Math.max(t.reconnects, r.reconnectCount ?? 0);
        if (r.lastError !== null) this.keep(t, r.lastError);
      } else {
        t.booksLive.add(r.symbol);
        t.firstBookAt ??= at;
        t.bookRecords++;
      }
    }
    return Promise.resolve();
  }

  debug(message: string, fields?: Fields): void {
    this.line(message, fields);
  }
  info(message: string, fields?: Fields): void {
    this.line(message, fields);
  }
  warn(message: string, fields?: Fields): void {
    this.line(message, fields);
  }
  error(message: string, fields?: Fields): void {
    this.line(message, fields);
  }

  /**
   * Everything observed, per venue in `order` (venues that never wrote anything included), with
   * the integrity counters of `health` (the ingestor's; zeros for a venue it does not report).
   */
  observations(
    order: readonly string[],
    at: number,
    health: readonly VenueHealth[] = [],
  ): VenueObservation[] {
    const byId = new Map(health.map((h) => [h.exchangeId, h.counters]));
    return order.map((exchangeId) =>
      this.observe(exchangeId, this.tally(exchangeId), at, byId.get(exchangeId)),
    );
  }

  private observe(
    exchangeId: string,
    t: Tally,
    at: number,
    c: VenueHealth['counters'] | undefined,
  ): VenueObservation {
    const sides = [...t.booksLive].flatMap((s) => {
      const b = this.cache.book(exchangeId, s);
      return b === undefined ? [] : [{ bids: b.bids.count, asks: b.asks.count }];
    });
    const since = t.firstBookAt === null ? 0 : (at - t.firstBookAt) / 1000;
    return {
      exchangeId,
      markets: [...t.markets],
      booksLive: [...t.booksLive],
      firstBookMs: t.firstBookAt === null ? null : t.firstBookAt - this.startedAt,
      updatesPerSecond: since > 0 ? Math.max(0, t.bookRecords - 1) / since : 0,
      depth:
        sides.length === 0
          ? null
          : { bids: median(sides.map((s) => s.bids)), asks: median(sides.map((s) => s.asks)) },
      gaps: c?.gaps ?? 0,
      checksumFailures: c?.checksumFailures ?? 0,
      badBooks: c?.badBooks ?? 0,
      stalls: c?.stalls ?? 0,
      reconnects: t.reconnects,
      connected: t.connected,
      errors: [...t.errors],
    };
  }

  /** Keep the venue's own error text from a log line of the ingestor (it logs every failure with it). */
  private line(_message: string, fields?: Fields): void {
    const exchangeId = fields?.exchangeId;
    if (typeof exchangeId !== 'string') return;
    const text = [fields?.error, fields?.reason].find((v): v is string => typeof v === 'string');
    if (text !== undefined) this.keep(this.tally(exchangeId), text);
  }

  /** Keep an error text; one that repeats another with context ("loading markets failed: X") replaces it. */
  private keep(t: Tally, text: string): void {
    const i = t.errors.findIndex((e) => e.includes(text) || text.includes(e));
    if (i >= 0) t.errors[i] = t.errors[i]!.length >= text.length ? t.errors[i]! : text;
    else if (t.errors.length < MAX_ERRORS) t.errors.push(text);
  }

  private tally(exchangeId: string): Tally {
    let t = this.tallies.get(exchangeId);
    if (t === undefined) {
      t = {
        markets: new Set(),
        booksLive: new Set(),
        firstBookAt: null,
        bookRecords: 0,
        reconnects: 0,
        connected: false,
        errors: [],
      };
      this.tallies.set(exchangeId, t);
    }
    return t;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
