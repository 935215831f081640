import type { OriginLog, QuoteJournal } from '@app/audit';

interface TimerLogger {
  warn(message: string): void;
}

/**
 * Signs the origin's checkpoint every CHECKPOINT_INTERVAL_MS and once more at stop (after the
 * journal's last append). A failed round is logged and retried at the next tick: its leaves keep
 * their place in the tree, so the retry signs the same order.
 */
export class CheckpointTimer {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly tlog: OriginLog,
    private readonly everyMs: number,
    private readonly logger: TimerLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.round(), this.everyMs);
    this.timer.unref();
  }

  /** Stop ticking and sign the last checkpoint (an error is logged: the stop goes on). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.round();
  }

  private async round(): Promise<void> {
    try {
      await this.tlog.checkpoint();
    } catch (e) {
      this.logger.warn(`checkpoint not signed, retried at the next tick: ${(e as Error).message}`);
    }
  }
}

/**
 * Whether a checkpoint may promise the merge delay now: not while the journal's appends fail, nor
 * when one failed since the previous question (records may have waited unappended meanwhile).
 */
export function journalHealthy(journal: () => QuoteJournal): () => boolean {
  let failures = 0;
  return () => {
    const j = journal();
    const now = j.stats.failures;
    const kept = !j.failing && now === failures;
    failures = now;
    return kept;
  };
}
