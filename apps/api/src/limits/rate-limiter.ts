/** What the limiter decided for one request, with the values of the x-ratelimit-* headers. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window resets, rounded up, at least 1 (clarifications 10). */
  readonly resetSec: number;
}

interface Window {
  start: number;
  count: number;
}

const SWEEP_EVERY_MS = 10_000;

/**
 * Fixed window per client address: the window opens at the address's first request and lasts
 * `windowMs`; at most `limit` requests pass in it. Time is an argument (monotonic ms).
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  /** Count one request from `address` at `nowMs`. */
  hit(address: string, nowMs: number): RateDecision {
    if (nowMs - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(nowMs);
    let w = this.windows.get(address);
    if (w === undefined || nowMs - w.start >= this.windowMs) {
      w = { start: nowMs, count: 0 };
      this.windows.set(address, w);
    }
    w.count++;
    const resetSec = Math.max(1, Math.ceil((w.start + this.windowMs - nowMs) / 1000));
    return {
      allowed: w.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      resetSec,
    };
  }

  /** Forget closed windows so idle addresses do not accumulate. */
  private sweep(nowMs: number): void {
    this.lastSweep = nowMs;
    for (const [address, w] of this.windows)
      if (nowMs - w.start >= this.windowMs) this.windows.delete(address);
  }
}
