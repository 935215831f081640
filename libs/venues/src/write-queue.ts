import type { EventRecord } from '@app/events';
import type { RecordSink } from '@app/log';

/**
 * Serialises writes to a sink: one write in flight, records arriving meanwhile go out as the
 * next batch, so per-book order is kept whatever the sink does with concurrent calls.
 */
export class WriteQueue {
  private pending: EventRecord[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly sink: RecordSink,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(records: readonly EventRecord[]): void {
    if (records.length === 0) return;
    for (const r of records) this.pending.push(r);
    this.running ??= this.drain();
  }

  /** Resolves once everything pushed so far is written (or failed). */
  async drained(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.sink.write(batch);
      } catch (e) {
        this.onError(e);
      }
    }
    this.running = null;
  }
}
