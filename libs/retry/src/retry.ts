import { Backoff, type BackoffPolicy, type Random } from './backoff';
import { REAL_TIME, type RetryTime } from './sleep';

/** How a call is retried: pauses under `initialMs` doubling to `maxMs` (full jitter), and when to stop. */
export interface RetryOptions extends BackoffPolicy {
  /** Calls in all, the first included (default: no limit). */
  readonly attempts?: number;
  /** No retry starts later than this many ms after the first call began (default: no limit). */
  readonly withinMs?: number;
  /** Whether a failure may be retried (default: every one); one it refuses is thrown at once. */
  readonly retryIf?: (error: unknown) => boolean;
  /** The least pause after this failure (a Retry-After it carries; default 0). */
  readonly floorOf?: (error: unknown) => number;
  /** Told each failure that will be retried, before the pause: clean up, log. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void | Promise<void>;
  /** Aborting stops retrying: a pause ends at once and the last failure is thrown. */
  readonly signal?: AbortSignal;
  /** Default Math.random. */
  readonly random?: Random;
  /** Default REAL_TIME. */
  readonly time?: RetryTime;
}

/**
 * `call(attempt)` (attempt 0 first) until it resolves, retried after failures `retryIf` accepts
 * while attempts and time are left and `signal` has not aborted; the last failure is thrown as it
 * was. The one retry loop of the house: every place that tries again goes through this or Backoff.
 */
export async function retry<T>(call: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const time = options.time ?? REAL_TIME;
  const backoff = new Backoff(options, options.random);
  const started = time.now();
  const attempts = options.attempts ?? Infinity;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(attempt);
    } catch (e) {
      if (attempt + 1 >= attempts || aborted(options.signal)) throw e;
      if (options.retryIf !== undefined && !options.retryIf(e)) throw e;
      const delay = backoff.next(options.floorOf?.(e) ?? 0);
      if (options.withinMs !== undefined && time.now() + delay - started > options.withinMs) throw e;
      await options.onRetry?.(e, attempt, delay);
      // A pause of 0 (a policy of 0 ms) retries in the same turn, as a plain loop would.
      if (delay > 0) await time.sleep(delay, options.signal);
      if (aborted(options.signal)) throw e;
    }
  }
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
