/**
 * Wait `ms`, or less if `signal` aborts first (resolved either way: the caller looks at the signal).
 * The abort listener is removed when the timer fires: a long replay sleeps thousands of times on one
 * signal, and each would otherwise leave a listener.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The clock a retry reads and waits on: injected so tests run a retry schedule without waiting. */
export interface RetryTime {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Wait `ms`, resolving early when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The process's monotonic clock and timers. */
export const REAL_TIME: RetryTime = { now: () => performance.now(), sleep };
