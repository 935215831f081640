/**
 * Wait `ms`, or less if `signal` aborts first. The abort listener is removed when the timer fires:
 * a long replay sleeps thousands of times on one signal, and each would otherwise leave a listener.
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

/**
 * Let the event loop run what is due (sockets, timers) before going on. The embedded log reads
 * synchronously and resolves at once, so a long read loop of awaits would otherwise hold the loop
 * from its first chunk to its last: the readers of past books (asOf, the time index, readRange)
 * call this after each chunk they read.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The longest a reader of past books holds the event loop before it lets others run. */
const TURN_MS = 4;

/**
 * A time budget for one event-loop turn: `due()` is true once TURN_MS have passed since the turn
 * began; the caller then awaits `next()`. Checked per record, so a fold of large snapshots gives
 * way every few milliseconds however big its chunks are.
 */
export class TurnBudget {
  private started = performance.now();

  due(): boolean {
    return performance.now() - this.started >= TURN_MS;
  }

  async next(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}
