/** What the budget knows of one open HTTP connection when it must choose one to shed. */
export interface Holder {
  /** When it was accepted (performance.now()). */
  readonly acceptedAt: number;
  /** Bytes received from the client so far. */
  bytesRead(): number;
  /** A request received in full is being answered: never shed (nothing accepted is lost). */
  answering(): boolean;
}

/** A connection younger than this is never shed: a newcomer gets time to send its request. */
export const SHED_MIN_AGE_MS = 1000;
/** At most this many of the oldest connections are looked at to choose one (bounded work). */
export const SHED_SCAN = 256;

/**
 * The connection to shed when the server is full and a newcomer arrives (docs/api.md "Limits"):
 * among the SHED_SCAN oldest HTTP connections, those held at least SHED_MIN_AGE_MS and not being
 * answered, the one that has sent the fewest bytes per second held (slow bodies, stalled heads,
 * idle keep-alives), the oldest on ties; null when none qualifies. `holders` is oldest first.
 */
export function pickShed<T extends Holder>(holders: Iterable<T>, now: number): T | null {
  let best: T | null = null;
  let bestRate = Infinity;
  let looked = 0;
  for (const h of holders) {
    if (++looked > SHED_SCAN) break;
    const age = now - h.acceptedAt;
    // Oldest first: from here on every connection is younger still.
    if (age < SHED_MIN_AGE_MS) break;
    if (h.answering()) continue;
    const rate = h.bytesRead() / age;
    if (rate < bestRate) {
      best = h;
      bestRate = rate;
    }
  }
  return best;
}
