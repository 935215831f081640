import type { EventRecord } from '@app/events';
import { PARKED_PREFIX } from '@app/telemetry';
import { DDoSProtection, RateLimitExceeded } from 'ccxt';
import { Backoff, backoffDelay } from '@app/retry';
import { CircuitBreaker } from './breaker';
import { messageOf, type FailureKind } from './failure-kind';
import type { IngestorOptions } from './options';
import type { RecordWriter } from './record-writer';
import type { VenueCounters } from './venue-counters';
import { VenueStatus } from './venue-status';

/**
 * A venue's standing (docs/venues.md "Resilience"), kept by its connection: the circuit breaker,
 * the venue record, the Retry-After every REST call and retry waits for, and what failed so far.
 * Subscription and markets failures feed the venue record and the breaker; a good book closes the
 * breaker and may bring the venue record to `connected: true`.
 */
export class VenueFailures {
  readonly counters: Pick<VenueCounters, 'escapes' | 'failures' | 'rateLimited' | 'parks'> = {
    escapes: 0,
    failures: 0,
    rateLimited: 0,
    parks: 0,
  };
  readonly breaker: CircuitBreaker;
  readonly status: VenueStatus;
  /** Epoch ms before which REST calls and retries wait (a 429/418 Retry-After). */
  private restUntil = 0;

  constructor(
    private readonly exchangeId: string,
    certified: boolean,
    private readonly opts: IngestorOptions,
    /** The ingestor's one queue into the log (shared by every venue). */
    private readonly writes: RecordWriter,
  ) {
    this.status = new VenueStatus(exchangeId, certified, 1);
    this.breaker = new CircuitBreaker(opts.breaker, opts.random);
  }

  /** What is left of a pending Retry-After (ms, 0 when none). */
  restWaitMs(): number {
    return Math.max(0, this.restUntil - this.opts.now());
  }

  /** The pauses of one of the venue's retry loops (markets, a subscription group): full jitter. */
  backoff(): Backoff {
    return new Backoff(this.opts.backoff, this.opts.random);
  }

  /** The loop's next pause, never shorter than a pending Retry-After. */
  delay(backoff: Backoff): number {
    return backoff.next(this.restWaitMs());
  }

  /** A subscription (or markets) failed: venue record, breaker, counters. True when it parked the venue. */
  failed(group: number | null, error: string, kind: FailureKind, e: unknown): boolean {
    const { opts } = this;
    if (this.breaker.waitMs(opts.now()) > 0) return false;
    this.counters.failures++;
    // REST 429/418 answers are counted by the tap; this counts refusals seen elsewhere (a ws upgrade).
    if (kind === 'rate-limited' && !(e instanceof RateLimitExceeded || e instanceof DDoSProtection))
      this.counters.rateLimited++;
    if (this.breaker.failure(opts.now())) {
      this.counters.parks++;
      const until = new Date(this.breaker.parkedUntil!).toISOString();
      const text = `${PARKED_PREFIX}${until} after ${this.breaker.failuresInARow} failures in a row: ${error}`;
      opts.logger.warn('venue parked (circuit breaker open); it will be probed', {
        exchangeId: this.exchangeId,
        until,
        error,
      });
      this.down(null, text);
      return true;
    }
    this.down(group, error);
    return false;
  }

  /** A REST answer 429/418: every REST call and retry waits `ms` (a backoff draw when absent). */
  rateLimited(status: number, ms: number | null): void {
    const { opts } = this;
    this.counters.rateLimited++;
    const wait = ms ?? backoffDelay(4, opts.backoff, opts.random, opts.backoff.initialMs);
    this.restUntil = Math.max(this.restUntil, opts.now() + wait);
    opts.logger.warn('venue answered REST with a rate limit; waiting', {
      exchangeId: this.exchangeId,
      status,
      retryAfterMs: ms,
    });
  }

  /** An error that escaped ccxt's own handling on this venue: counted and logged. */
  escaped(e: unknown, origin: string): void {
    this.counters.escapes++;
    this.opts.logger.warn('venue error escaped ccxt; contained', {
      exchangeId: this.exchangeId,
      origin,
      error: messageOf(e),
    });
  }

  /** A good book of `group` went into `batch`: the breaker closes; a venue record it brings about follows it. */
  published(group: number, receivedAt: number, batch: EventRecord[]): void {
    this.breaker.success();
    if (this.status.groupUp(group)) batch.push(this.status.record(receivedAt));
  }

  /** The venue record goes (or stays) `connected: false` with `error`; written when it changed. */
  down(group: number | null, error: string): void {
    if (this.status.down(group, error)) this.writes.push([this.status.record(this.opts.now())]);
  }
}
