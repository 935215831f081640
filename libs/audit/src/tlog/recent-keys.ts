/**
 * Leaf index by journal key for the newest keys only: what the proof endpoint can look up in memory
 * whatever the traffic (about 100 bytes a key). Two generations of max/2 keys each: when the newer
 * fills, the older is dropped whole, so the newest max/2 to max keys are held, each set O(1).
 * (Evicting the oldest key of one Map one by one is not O(1) in V8: its iterator walks the holes
 * the earlier deletions left.) An older quote is proven by an auditor from the log itself.
 */
export class RecentKeys {
  private newer = new Map<string, number>();
  private older = new Map<string, number>();

  constructor(readonly max: number) {}

  /** The key's newest leaf (a reused key counts as new). */
  set(key: string, leafIndex: number): void {
    this.newer.set(key, leafIndex);
    if (this.newer.size >= Math.max(1, Math.floor(this.max / 2))) {
      this.older = this.newer;
      this.newer = new Map();
    }
  }

  get(key: string): number | undefined {
    return this.newer.get(key) ?? this.older.get(key);
  }
}

/** Keys the service keeps for proofs (between 125,000 and 250,000 of the newest): about 25 MB at most. */
export const RECENT_KEYS = 250_000;
