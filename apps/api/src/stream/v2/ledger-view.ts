import { parseJournalValueLine } from '@app/audit';
import { STREAM_LEDGER } from '@app/events';
import type { EventLog } from '@app/event-log';
import type { ResumePoint } from './client-messages';
import { ResumePoints } from './resume-points';
import type { ResumeVerdict } from './server-messages';

/**
 * Records read (and parsed: 30-80 us each on the project's machine) between two turns of the event
 * loop: a first read of a full ledger is tens of thousands of them, and other clients wait at most
 * one chunk's parse (about 10-20 ms).
 */
const CHUNK = 256;

/**
 * The stream ledger as this process has read it: every open and close of the recent past, kept in
 * a ResumePoints like the process's own streams. It is read incrementally, from where the last
 * read stopped, so what one resume costs is what was appended since the last one (not a scan of
 * the ledger per resume: a client naming random streamIds once made each resume read 16,384
 * records, and 200 of them a second stalled the service for a minute; bench `resume-scan`).
 */
export class LedgerView {
  private readonly points: ResumePoints;
  /** The next offset to read per partition; null until the first read. */
  private positions: number[] | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly log: EventLog,
    windowMs: number,
    /** How many of each partition's newest records the first read starts from (older closes are past the window). */
    private readonly startEntries: number,
  ) {
    this.points = new ResumePoints(windowMs);
  }

  /** Read the ledger now, ahead of the first resume. */
  warm(): Promise<void> {
    return this.catchUp();
  }

  /** The verdict on `point` from every ledger record appended before the call. */
  async verdict(point: ResumePoint, key: string, now: () => number): Promise<ResumeVerdict> {
    await this.catchUp();
    return this.points.verdict(point, key, now());
  }

  /**
   * Read what was appended. A read already under way may have missed records flushed just before
   * this call, so the caller waits for the next one, which every caller arriving meanwhile shares:
   * at most one read runs and one waits, however many resumes arrive.
   */
  private catchUp(): Promise<void> {
    if (this.running === null) {
      this.running = this.read().finally(() => (this.running = null));
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.catchUp();
      });
    return this.queued;
  }

  private async read(): Promise<void> {
    const ends = await this.log.highWatermarks(STREAM_LEDGER);
    const positions = (this.positions ??= ends.map((end) => Math.max(0, end - this.startEntries)));
    for (let p = 0; p < ends.length; p++) {
      const end = ends[p]!;
      positions[p] ??= Math.max(0, end - this.startEntries);
      while (positions[p]! < end) {
        const entries = await this.log.read(
          STREAM_LEDGER,
          p,
          positions[p]!,
          Math.min(CHUNK, end - positions[p]!),
        );
        if (entries.length === 0) break;
        for (const e of entries) this.apply(e.value);
        // Retention may have removed entries: go on after the last one actually read.
        positions[p] = entries.at(-1)!.offset + 1;
      }
    }
  }

  private apply(value: string): void {
    const parsed = parseJournalValueLine(value);
    if (!parsed.ok) return;
    const r = parsed.record;
    if (r.type === 'stream_open') this.points.opened(r.streamId, JSON.stringify(r.request));
    else if (r.type === 'stream_close')
      this.points.closed(r.streamId, JSON.stringify(r.request), r.lastSeq, r.at);
  }
}
