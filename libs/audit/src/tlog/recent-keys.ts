/**
 * Leaf index by journal key for the newest `max` keys only: what the proof endpoint can look up
 * in memory whatever the traffic (about 100 bytes a key). An older quote is proven by an auditor
 * from the log itself (`replay verify`), not by the service.
 */
export class RecentKeys {
  private readonly map = new Map<string, number>();

  constructor(readonly max: number) {}

  /** The key's newest leaf (a reused key moves to the newest end); the oldest key beyond `max` goes. */
  set(key: string, leafIndex: number): void {
    this.map.delete(key);
    this.map.set(key, leafIndex);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  get(key: string): number | undefined {
    return this.map.get(key);
  }
}

/** Keys the service keeps for proofs: about 25 MB. */
export const RECENT_KEYS = 250_000;
