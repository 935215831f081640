import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { QuoteJournal } from '@app/audit';
import { BookFeed } from '@app/live-feed';
import type { VenueLine } from '@app/telemetry';
import { CLOCK_SKEW_TOLERANCE_MS } from '@app/routing';
import { Clock } from '../clock';
import { ClockSkew } from './clock-skew';
import { isFresh } from './freshness';
import { SERVER_CONFIG } from '../tokens';

/** /health's `status` (docs/api.md "GET /health"). */
export type HealthStatus = 'starting' | 'no_fresh_books' | 'degraded' | 'ok';

/** Everything the status is judged from, also read by the console summary and the metrics. */
export interface StatusReport {
  readonly status: HealthStatus;
  /** Why the status is not `ok`, in words (empty when ok). */
  readonly reasons: readonly string[];
  readonly venues: readonly (VenueLine & { readonly newestBookAt: number | null })[];
  readonly now: number;
  /** The ingestor's clock less this API's, from the records folded lately (null: none lately; clock-skew.ts). */
  readonly clockSkewMs: number | null;
}

/**
 * Whether the service can quote, judged at the service clock from the folded cache and the quote
 * journal:
 * - `starting`: the cache has not caught up with the log yet;
 * - `no_fresh_books`: no book is in sync and younger than STALE_BOOK_MS, so every quote is
 *   unroutable (all_books_stale or no_market);
 * - `degraded`: quotes are served but fewer than half of the venues the log knows have a fresh
 *   book, the ingestor's clock is ahead of this API's by more than CLOCK_SKEW_TOLERANCE_MS (its
 *   books are stamped in the future and do not route), the quote journal's appends are failing
 *   (records wait in memory; strict mode refuses), or reading the log found damage, books it could
 *   not rebuild or markets it keeps out of routing for a lost market or venue record
 *   (/exchanges/status `log`);
 * - `ok`: otherwise.
 */
@Injectable()
export class ServiceStatus {
  private readonly staleBookMs: number;
  private stopping = false;

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(SERVER_CONFIG) config: ServerConfig,
    @Inject(QuoteJournal) private readonly journal: QuoteJournal,
    @Inject(ClockSkew) private readonly skew: ClockSkew,
  ) {
    this.staleBookMs = config.routing.staleBookMs;
  }

  report(): StatusReport {
    const now = this.clock.now();
    const byVenue = new Map<string, { books: number; fresh: number; newest: number | null }>();
    for (const book of this.feed.cache.allBooks()) {
      if (book.sequence < 0) continue;
      let v = byVenue.get(book.exchangeId);
      if (v === undefined) byVenue.set(book.exchangeId, (v = { books: 0, fresh: 0, newest: null }));
      v.books++;
      if (isFresh(book, now, this.staleBookMs)) v.fresh++;
      if (v.newest === null || book.receivedAt > v.newest) v.newest = book.receivedAt;
    }
    const states = new Map(this.feed.cache.venueStates().map((s) => [s.exchangeId, s]));
    const ids = [...new Set([...states.keys(), ...byVenue.keys()])];
    const venues = ids.map((exchangeId) => {
      const s = states.get(exchangeId);
      const b = byVenue.get(exchangeId);
      return {
        exchangeId,
        // A venue with books but no venue record yet counts as connected (it is sending books).
        connected: s?.connected ?? b !== undefined,
        books: b?.books ?? 0,
        freshBooks: b?.fresh ?? 0,
        lastError: s?.lastError ?? null,
        newestBookAt: b?.newest ?? null,
      };
    });
    const clockSkewMs = this.skew.ms();
    return { ...this.judge(venues, clockSkewMs), venues, now, clockSkewMs };
  }

  status(): HealthStatus {
    return this.report().status;
  }

  /**
   * GET /ready (docs/deploy.md "Readiness"): ready once the cache has caught up with the log
   * (any status but `starting`: the answers are then the log's, stale or not), until shutdown
   * begins. Orchestrators route traffic on it; /health stays 200 for liveness.
   */
  readiness(): { readonly ready: boolean; readonly status: 'ready' | 'starting' | 'stopping' } {
    if (this.stopping) return { ready: false, status: 'stopping' };
    return this.feed.isReady() ? { ready: true, status: 'ready' } : { ready: false, status: 'starting' };
  }

  /** Shutdown has begun: /ready answers 503 from now on. */
  markStopping(): void {
    this.stopping = true;
  }

  private judge(
    venues: readonly VenueLine[],
    skewMs: number | null,
  ): { status: HealthStatus; reasons: string[] } {
    if (!this.feed.isReady()) return { status: 'starting', reasons: ['catching up with the event log'] };
    const skew = this.skew.exceeded(skewMs)
      ? [
          `the ingestor's clock is ${Math.round(skewMs!)} ms ahead of this API's (tolerance ${CLOCK_SKEW_TOLERANCE_MS} ms): books stamped that far ahead do not route`,
        ]
      : [];
    const fresh = venues.filter((v) => v.freshBooks > 0).length;
    if (fresh === 0) {
      const why =
        venues.length === 0 ? 'no venue has sent anything yet' : 'every book is stale or out of sync';
      return { status: 'no_fresh_books', reasons: [why, ...skew] };
    }
    const reasons: string[] = [...skew];
    if (fresh * 2 < venues.length) reasons.push(`only ${fresh} of ${venues.length} venues have a fresh book`);
    if (this.journal.failing)
      reasons.push(`quote journal appends are failing (${this.journal.queued} records waiting)`);
    // What reading the log found (docs/operations-log.md "Faults"): details in /exchanges/status.
    const log = this.feed.health();
    if (log.log.damagedEntries > 0) reasons.push(`${log.log.damagedEntries} damaged log entries skipped`);
    if (log.log.problems.length > 0) reasons.push(`the event log has ${log.log.problems.length} problem(s)`);
    if (log.booksNotRebuilt.length > 0)
      reasons.push(`${log.booksNotRebuilt.length} books could not be rebuilt`);
    if (log.listingsWithheld.length > 0)
      reasons.push(
        `${log.listingsWithheld.length} markets kept out of routing until their lost market or venue record is written again`,
      );
    return { status: reasons.length > 0 ? 'degraded' : 'ok', reasons };
  }
}
