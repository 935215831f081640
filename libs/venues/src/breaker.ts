import { backoffCeiling, backoffDelay, type Random } from '@app/retry';

/** When a failing venue is parked and how it is probed (docs/venues.md "Circuit breaker"). */
export interface BreakerPolicy {
  /** Park after this many failures in a row (no good book published in between)... */
  readonly failures: number;
  /** ...that span at least this long (a burst of failures from one drop is not persistence). */
  readonly failingMs: number;
  /** First probe this long after parking; each failed probe doubles it (full jitter) up to maxProbeMs. */
  readonly probeMs: number;
  readonly maxProbeMs: number;
}

export const DEFAULT_BREAKER: BreakerPolicy = Object.freeze({
  failures: 8,
  failingMs: 120_000,
  probeMs: 60_000,
  maxProbeMs: 30 * 60_000,
});

/**
 * A venue's circuit breaker. Closed: attempts run as they come (with their own backoff). After
 * `failures` failures in a row spanning `failingMs`, it opens (the venue is parked): nothing is
 * attempted until the probe time. A probe that fails parks it again for about twice as long; a
 * good book closes it.
 */
export class CircuitBreaker {
  private streak = 0;
  private firstFailureAt = 0;
  private probes = 0;
  /** Epoch ms until which the venue is parked; null when closed. */
  parkedUntil: number | null = null;
  /** Times the venue was parked (a failed probe counts again). */
  parks = 0;

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly random: Random,
  ) {}

  /** Failures in a row since the last good book. */
  get failuresInARow(): number {
    return this.streak;
  }

  get parked(): boolean {
    return this.parkedUntil !== null;
  }

  /** A good book: the venue works, forget the streak. */
  success(): void {
    this.streak = 0;
    this.probes = 0;
    this.parkedUntil = null;
  }

  /** A failure at `now`; returns true when it parks the venue. */
  failure(now: number): boolean {
    if (this.parkedUntil !== null && now < this.parkedUntil) return false;
    if (this.streak === 0) this.firstFailureAt = now;
    this.streak++;
    const probing = this.parkedUntil !== null;
    if (!probing && (this.streak < this.policy.failures || now - this.firstFailureAt < this.policy.failingMs))
      return false;
    const probes = { initialMs: this.policy.probeMs, maxMs: this.policy.maxProbeMs };
    const spacing = backoffDelay(
      this.probes,
      probes,
      this.random,
      // Full jitter, but never sooner than half the nominal spacing: a parked venue stays parked.
      backoffCeiling(this.probes, probes) / 2,
    );
    this.probes++;
    this.parks++;
    this.parkedUntil = now + spacing;
    return true;
  }

  /** How long an attempt at `now` must wait (0 when the breaker admits it: closed, or probe time). */
  waitMs(now: number): number {
    return this.parkedUntil === null ? 0 : Math.max(0, this.parkedUntil - now);
  }
}
