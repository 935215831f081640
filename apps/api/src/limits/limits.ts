import { FixedWindowLimiter, type RateDecision } from './rate-limiter';

/** Counts one request per call; synchronous in one process, a promise when shared. Never rejects. */
export interface RateLimiter {
  hit(address: string, nowMs: number): RateDecision | Promise<RateDecision>;
}

/** One open stream's place under its address's cap; released when the stream closes. */
export interface StreamSlot {
  release(): void;
}

/** The per-address concurrent stream cap (STREAM_MAX_PER_IP). */
export interface StreamSlots {
  /** A slot for one more stream of `address`, or null when it holds the cap already. Never rejects. */
  take(address: string): StreamSlot | null | Promise<StreamSlot | null>;
}

/** What the limits did so far (metrics and the fleet's failure table). */
export interface LimitStats {
  readonly backend: 'memory' | 'redis';
  /** Whether the shared store answered its last call (always true in memory). */
  readonly sharedUp: boolean;
  /** Requests counted by this replica alone because Redis did not answer (fail open). */
  readonly rateFallbacks: number;
  /** Streams admitted against this replica's own count because Redis did not answer. */
  readonly streamFallbacks: number;
}

/**
 * The rate limit and the stream cap of the API (DI token). In one process both live in memory
 * (`localLimits`); with REDIS_URL every replica shares them through Redis (redis-limits.ts).
 */
export abstract class Limits {
  abstract readonly rate: RateLimiter;
  abstract readonly streams: StreamSlots;
  abstract stats(): LimitStats;
  /** Resolves once the shared store answers, or after a short wait (the limits fail open meanwhile). */
  abstract start(): Promise<void>;
  abstract close(): Promise<void>;
}

/** Streams per address held by this process. */
export class LocalStreamSlots implements StreamSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly cap: number) {}

  take(address: string): StreamSlot | null {
    const n = this.held.get(address) ?? 0;
    if (n >= this.cap) return null;
    return this.grant(address);
  }

  /** A slot whatever the count (the shared store already admitted the stream). */
  grant(address: string): StreamSlot {
    this.held.set(address, (this.held.get(address) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.held.get(address) ?? 1) - 1;
        if (left > 0) this.held.set(address, left);
        else this.held.delete(address);
      },
    };
  }

  /** Streams `address` holds here. */
  count(address: string): number {
    return this.held.get(address) ?? 0;
  }
}

/** Both limits in this process: the single-process service (no REDIS_URL). */
export function localLimits(rateLimitRps: number, streamMaxPerIp: number): Limits {
  const rate = new FixedWindowLimiter(rateLimitRps);
  const streams = new LocalStreamSlots(streamMaxPerIp);
  return {
    rate,
    streams,
    stats: () => ({ backend: 'memory', sharedUp: true, rateFallbacks: 0, streamFallbacks: 0 }),
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
