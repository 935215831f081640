import { byCodeUnit } from '@app/events';
/** When a producer writes a full snapshot of a book (docs/operations-log.md "Snapshots"). */
export interface SnapshotPolicy {
  /** A snapshot at least every this many deltas of a book. */
  readonly everyDeltas: number;
  /** A snapshot at least every this many milliseconds of a book that keeps changing. */
  readonly everyMs: number;
}

export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = { everyDeltas: 1000, everyMs: 30_000 };

interface KeyState {
  deltas: number;
  lastSnapshotAt: number;
}

/**
 * Tells a producer when a book is due for a full snapshot record, so a rebuild or a replay starts
 * from a recent snapshot instead of the topic's beginning. Pure: time is an argument.
 */
export class SnapshotScheduler {
  private readonly keys = new Map<string, KeyState>();

  constructor(readonly policy: SnapshotPolicy = DEFAULT_SNAPSHOT_POLICY) {
    if (!Number.isInteger(policy.everyDeltas) || policy.everyDeltas < 1)
      throw new RangeError(`everyDeltas must be a positive integer, got ${policy.everyDeltas}`);
    if (!Number.isFinite(policy.everyMs) || policy.everyMs <= 0)
      throw new RangeError(`everyMs must be a positive number, got ${policy.everyMs}`);
  }

  /** Note that a record of `key` was written at `now` (a snapshot resets the book's counters). */
  written(key: string, snapshot: boolean, now: number): void {
    const s = this.keys.get(key);
    if (snapshot) {
      if (s === undefined) this.keys.set(key, { deltas: 0, lastSnapshotAt: now });
      else {
        s.deltas = 0;
        s.lastSnapshotAt = now;
      }
    } else if (s !== undefined) s.deltas++;
  }

  /** Whether the next record of `key` should be a full snapshot (always, before the first one). */
  due(key: string, now: number): boolean {
    const s = this.keys.get(key);
    return (
      s === undefined || s.deltas >= this.policy.everyDeltas || now - s.lastSnapshotAt >= this.policy.everyMs
    );
  }

  /** Keys with deltas since their last snapshot whose time is up, sorted (a timer's sweep). */
  dueByTime(now: number): string[] {
    const out: string[] = [];
    for (const [key, s] of this.keys)
      if (s.deltas > 0 && now - s.lastSnapshotAt >= this.policy.everyMs) out.push(key);
    return out.sort(byCodeUnit);
  }

  /** Forget a book (e.g. its market was delisted). */
  forget(key: string): void {
    this.keys.delete(key);
  }
}
