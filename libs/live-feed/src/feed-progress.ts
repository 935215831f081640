import type { TopicName } from '@app/events';
import type { FeedLogger } from './book-feed';

/** How often start-up says how far it got, and how long without progress counts as a stall. */
const REPORT_EVERY_MS = 5_000;
const STALL_AFTER_MS = 15_000;

/**
 * Start-up is never silent: the feed says what it is rebuilding (per topic, from where to where),
 * how far it got every few seconds, and loudly when nothing moved for a while, with the
 * positions it is waiting at.
 */
export class FeedProgress {
  private total = 0;
  private readonly startedAt = performance.now();
  private lastReport = this.startedAt;
  private lastMove = this.startedAt;
  private lastApplied = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly logger: FeedLogger) {}

  /** Say what the rebuild covers: per topic, the entries between its start positions and the marks. */
  plan(topic: TopicName, from: readonly number[], to: readonly number[], fromSnapshots: boolean): void {
    const entries = to.reduce((sum, end, p) => sum + Math.max(0, end - (from[p] ?? 0)), 0);
    this.total += entries;
    const where = topic === 'books' && fromSnapshots ? 'from the latest snapshots' : 'from the start';
    this.logger.log(
      `rebuilding ${topic} ${where}: ${entries} entries over ${to.length} partitions (positions ${JSON.stringify(from)} to ${JSON.stringify(to)})`,
    );
  }

  /** Watch for stalls until `stop` (the timer does not keep the process alive). */
  watch(applied: () => number, positions: () => unknown): void {
    this.timer = setInterval(() => {
      const now = performance.now();
      const done = applied();
      if (done !== this.lastApplied) {
        this.lastApplied = done;
        this.lastMove = now;
      } else if (now - this.lastMove >= STALL_AFTER_MS) {
        this.logger.warn(
          `book feed start-up: no entry applied for ${Math.round((now - this.lastMove) / 1000)} s; waiting for the log at positions ${JSON.stringify(positions())}`,
        );
        this.lastMove = now;
      }
    }, 1_000);
    this.timer.unref();
  }

  /** Called after each applied batch while starting. */
  applied(done: number): void {
    const now = performance.now();
    if (now - this.lastReport < REPORT_EVERY_MS) return;
    this.lastReport = now;
    const pct = this.total === 0 ? 100 : Math.min(100, Math.floor((done * 100) / this.total));
    this.logger.log(`rebuilding: ${done} of ${this.total} entries applied (${pct}%)`);
  }

  stop(): number {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    return Math.round(performance.now() - this.startedAt);
  }
}
