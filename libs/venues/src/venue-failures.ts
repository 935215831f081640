import { PARKED_PREFIX } from '@app/logging';
import { DDoSProtection, NetworkError, RateLimitExceeded } from 'ccxt';
import { Backoff, backoffDelay } from '@app/retry';
import type { BookResync } from './book-resync';
import type { CircuitBreaker } from './breaker';
import type { CcxtClient } from './ccxt-venue';
import { messageOf, type FailureKind } from './failure-kind';
import type { IngestorOptions } from './options';
import type { RecordWriter } from './record-writer';
import type { VenueCounters } from './venue-counters';
import type { VenueStatus } from './venue-status';

/** What failure handling reads and changes of a venue's runner. */
export interface FailureContext {
  readonly exchangeId: string;
  readonly opts: IngestorOptions;
  readonly writes: RecordWriter;
  readonly counters: VenueCounters;
  readonly breaker: CircuitBreaker;
  readonly status: VenueStatus;
  readonly resync: BookResync;
  stopped(): boolean;
}

/**
 * A venue's failures (docs/venues.md "Resilience"): subscription and markets failures feed the
 * venue record and the circuit breaker, REST rate limits set the Retry-After every REST call and
 * retry waits for, and errors that escaped ccxt are counted and become the venue's reconnect.
 */
export class VenueFailures {
  /** Epoch ms before which REST calls and retries wait (a 429/418 Retry-After). */
  private restUntil = 0;

  constructor(private readonly ctx: FailureContext) {}

  /** What is left of a pending Retry-After (ms, 0 when none). */
  restWaitMs(): number {
    return Math.max(0, this.restUntil - this.ctx.opts.now());
  }

  /** The pauses of one of the venue's retry loops (markets, a subscription group): full jitter. */
  backoff(): Backoff {
    return new Backoff(this.ctx.opts.backoff, this.ctx.opts.random);
  }

  /** The loop's next pause, never shorter than a pending Retry-After. */
  delay(backoff: Backoff): number {
    return backoff.next(this.restWaitMs());
  }

  /** A subscription (or markets) failed: venue record, breaker, counters. */
  failed(group: number | null, error: string, kind: FailureKind, e: unknown): void {
    const { ctx } = this;
    if (ctx.breaker.waitMs(ctx.opts.now()) > 0) return;
    ctx.counters.failures++;
    // REST 429/418 answers are counted by the tap; this counts refusals seen elsewhere (a ws upgrade).
    if (kind === 'rate-limited' && !(e instanceof RateLimitExceeded || e instanceof DDoSProtection))
      ctx.counters.rateLimited++;
    const now = ctx.opts.now();
    if (ctx.breaker.failure(now)) {
      ctx.counters.parks++;
      const until = new Date(ctx.breaker.parkedUntil!).toISOString();
      const text = `${PARKED_PREFIX}${until} after ${ctx.breaker.failuresInARow} failures in a row: ${error}`;
      ctx.opts.logger.warn('venue parked (circuit breaker open); it will be probed', {
        exchangeId: ctx.exchangeId,
        until,
        error,
      });
      this.down(null, text);
      ctx.resync.allConnections(`${ctx.exchangeId} parked`);
      return;
    }
    this.down(group, error);
  }

  /** A REST answer 429/418: every REST call and retry waits `ms` (a backoff draw when absent). */
  rateLimited(status: number, ms: number | null): void {
    const { ctx } = this;
    ctx.counters.rateLimited++;
    const wait = ms ?? backoffDelay(4, ctx.opts.backoff, ctx.opts.random, ctx.opts.backoff.initialMs);
    this.restUntil = Math.max(this.restUntil, ctx.opts.now() + wait);
    ctx.opts.logger.warn('venue answered REST with a rate limit; waiting', {
      exchangeId: ctx.exchangeId,
      status,
      retryAfterMs: ms,
    });
  }

  /** An error that escaped ccxt's own handling on this venue: count, log, reconnect the venue. */
  contain(e: unknown, origin: string, client: CcxtClient | null): void {
    const { ctx } = this;
    ctx.counters.escapes++;
    ctx.opts.logger.warn('venue error escaped ccxt; contained', {
      exchangeId: ctx.exchangeId,
      origin,
      error: messageOf(e),
    });
    if (ctx.stopped()) return;
    const reason = new NetworkError(`${ctx.exchangeId} ${messageOf(e)}`);
    if (client !== null) client.onError(reason);
    else ctx.resync.allConnections(reason.message);
  }

  /** The venue record goes (or stays) `connected: false` with `error`; written when it changed. */
  down(group: number | null, error: string): void {
    if (this.ctx.status.down(group, error))
      this.ctx.writes.push([this.ctx.status.record(this.ctx.opts.now())]);
  }
}
