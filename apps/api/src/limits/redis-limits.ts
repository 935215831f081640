import { errorMessage } from '@app/retry';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { LostLockError, Semaphore } from 'redis-semaphore';
import { FixedWindowLimiter, type RateDecision } from './rate-limiter';
import { Limits, LocalStreamSlots, type LimitStats, type StreamSlot } from './limits';

/** A Redis call that takes longer than this is given up: the request is judged by this replica. */
export const REDIS_TIMEOUT_MS = 250;
/** A stream's slot in Redis lives this long unless refreshed: what a killed replica's streams hold. */
export const STREAM_LEASE_MS = 10_000;
const STREAM_REFRESH_MS = 3_000;
const WINDOW_SEC = 1;

/** Where the limits say what happens to them (the API's logger). */
export interface LimitsLogger {
  warn(message: string): void;
  log(message: string): void;
}

export interface RedisLimitsOptions {
  readonly url: string;
  readonly rateLimitRps: number;
  readonly streamMaxPerIp: number;
  readonly logger: LimitsLogger;
  /** Keys are `<keyPrefix>:rate:<ip>` and `<keyPrefix>:streams:<ip>` (several services may share a Redis). */
  readonly keyPrefix?: string;
}

/**
 * The rate limit and the stream cap shared by every API replica through one Redis
 * (clarifications 10 and 11 across the service, not per process). The rate limit is
 * rate-limiter-flexible's Redis limiter: one atomic script per request opens the address's
 * window at its first request (SET NX with a 1 s expiry on Redis's clock, then INCRBY), so
 * replicas agree on every window; once an address is over its limit, each replica refuses it
 * from memory until the window ends (no Redis call for a flood). The stream cap is
 * redis-semaphore's counting semaphore: a slot per open stream, refreshed every 3 s and gone 10 s
 * after its replica stops refreshing it (a killed replica's streams free their slots by
 * themselves).
 *
 * Redis down or slow (no answer within REDIS_TIMEOUT_MS) fails open: the request or stream is
 * judged by this replica's own limiter (the single-process rules, per replica), counted in
 * stats() and the metrics, and said once per outage in the log. Never a 5xx.
 */
export class RedisLimits extends Limits {
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;
  private readonly insurance: FixedWindowLimiter;
  private readonly local: LocalStreamSlots;
  private readonly prefix: string;
  private up = true;
  private rateFallbacks = 0;
  private streamFallbacks = 0;
  readonly rate = { hit: (address: string, nowMs: number) => this.hit(address, nowMs) };
  readonly streams = { take: (address: string) => this.take(address) };

  constructor(private readonly options: RedisLimitsOptions) {
    super();
    this.prefix = options.keyPrefix ?? 'route-service';
    this.redis = new Redis(options.url, {
      // Fail at once while disconnected (the caller falls back) instead of queueing commands.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(100 * times, 1_000),
    });
    // ioredis reports connection failures as events; the fallback counts and says them.
    this.redis.on('error', () => undefined);
    this.redis.on('ready', () => this.recovered());
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${this.prefix}:rate`,
      points: options.rateLimitRps,
      duration: WINDOW_SEC,
      inMemoryBlockOnConsumed: options.rateLimitRps + 1,
      rejectIfRedisNotReady: true,
    });
    this.insurance = new FixedWindowLimiter(options.rateLimitRps);
    this.local = new LocalStreamSlots(options.streamMaxPerIp);
  }

  stats(): LimitStats {
    return {
      backend: 'redis',
      sharedUp: this.up,
      rateFallbacks: this.rateFallbacks,
      streamFallbacks: this.streamFallbacks,
    };
  }

  /** Wait up to `timeoutMs` for the first connection; after that the limits fail open until it comes. */
  async start(timeoutMs = 3_000): Promise<void> {
    if (this.redis.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) this.failed(new Error(`no connection to Redis within ${timeoutMs} ms`));
  }

  close(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }

  private async hit(address: string, nowMs: number): Promise<RateDecision> {
    const limit = this.options.rateLimitRps;
    try {
      const res = await this.limiter.consume(address);
      this.answered();
      return decision(limit, res, true);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        this.answered();
        return decision(limit, e, false);
      }
      this.rateFallbacks++;
      this.failed(e);
      return this.insurance.hit(address, nowMs);
    }
  }

  private async take(address: string): Promise<StreamSlot | null> {
    const cap = this.options.streamMaxPerIp;
    // This replica alone holds the cap already: the shared count can only be higher.
    if (this.local.count(address) >= cap) return null;
    const semaphore = new GuardedSemaphore(this.redis, `${this.prefix}:streams:${address}`, cap, {
      identifier: randomUUID(),
      lockTimeout: STREAM_LEASE_MS,
      refreshInterval: STREAM_REFRESH_MS,
      acquireTimeout: REDIS_TIMEOUT_MS,
      acquireAttemptsLimit: 1,
      // A refresh that fails leaves the stream open (fail open); its slot may lapse meanwhile.
      onLockLost: (e) => this.failed(e),
    });
    let acquired: boolean;
    try {
      acquired = await semaphore.tryAcquire();
      this.answered();
    } catch (e) {
      this.failed(e);
      // Re-checked: other streams of this address may have been admitted while Redis was asked.
      const slot = this.local.take(address);
      if (slot !== null) this.streamFallbacks++;
      return slot;
    }
    if (!acquired) return null;
    const slot = this.local.grant(address);
    return {
      release: () => {
        slot.release();
        semaphore.release().catch(() => undefined);
      },
    };
  }

  private answered(): void {
    if (!this.up) this.recovered();
  }

  private failed(e: unknown): void {
    if (!this.up) return;
    this.up = false;
    this.options.logger.warn(
      `Redis is not answering (${errorMessage(e)}): the rate limit and the stream cap are counted per replica until it does (fail open)`,
    );
  }

  private recovered(): void {
    if (this.up) return;
    this.up = true;
    this.options.logger.log(
      `Redis answers again: the rate limit and the stream cap are shared (${this.rateFallbacks} requests and ${this.streamFallbacks} streams were judged per replica so far)`,
    );
  }
}

/**
 * redis-semaphore 5.8 refreshes a held slot on a timer that neither catches nor reports a refresh
 * that fails (Redis down, a command timed out): an unhandled rejection, which ends the process. A
 * failed refresh goes to `onLockLost` instead and the slot counts as still held (fail open: the
 * stream stays, its slot in Redis may lapse meanwhile), as a refresh that finds it gone does.
 */
class GuardedSemaphore extends Semaphore {
  protected override async _refresh(): Promise<boolean> {
    try {
      return await super._refresh();
    } catch (e) {
      this._onLockLost(new LostLockError(`refreshing ${this._key}: ${errorMessage(e)}`));
      return true;
    }
  }
}

function decision(limit: number, res: RateLimiterRes, allowed: boolean): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
