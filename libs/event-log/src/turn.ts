/**
 * Giving the event loop back. The embedded log reads synchronously and its promises resolve at
 * once, so a long loop of awaits over it would hold the loop from its first chunk to its last:
 * the readers of past books, the journal indexer and the retention timer yield with these.
 */

/** Let the event loop run what is due (sockets, timers) before going on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The longest background work holds the event loop before it lets requests and appends run. */
export const TURN_MS = 4;

/**
 * A time budget for one event-loop turn: `due()` is true once TURN_MS have passed since the turn
 * began; the caller then awaits `next()` (or schedules its next turn and starts a new budget).
 * Checked per record or per batch, so work on large entries gives way every few milliseconds.
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
