import type { ResumePoint } from './client-messages';
import type { ResumeVerdict } from './server-messages';

/** Closed streams remembered at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 100_000;

export interface Ended {
  readonly key: string;
  readonly lastSeq: number;
  readonly closedAt: number;
}

/**
 * The ends of this process's v2 streams, kept twice the resume window so a late resume is told
 * `expired` rather than `unknown_stream`. A verdict is resumed only when it is proven: the stream
 * closed, for the same normalised request, within the window, at or after the claimed seq.
 */
export class ResumePoints {
  private readonly ended = new Map<string, Ended>();
  private readonly open = new Map<string, string>();

  /** `windowMs`: how long a closed stream can be resumed (STREAM_RESUME_WINDOW_MS). */
  constructor(private readonly windowMs: number) {}

  opened(streamId: string, key: string): void {
    this.open.set(streamId, key);
    // A stream whose server crashed is never closed: the oldest such opens are forgotten first.
    if (this.open.size > MAX_REMEMBERED) this.open.delete(this.open.keys().next().value!);
  }

  closed(streamId: string, key: string, lastSeq: number, closedAt: number): void {
    this.open.delete(streamId);
    this.ended.set(streamId, { key, lastSeq, closedAt });
    this.prune(closedAt);
  }

  verdict(point: ResumePoint, key: string, now: number): ResumeVerdict {
    const end = this.ended.get(point.streamId);
    if (end === undefined)
      return { resumed: false, reason: this.open.has(point.streamId) ? 'still_open' : 'unknown_stream' };
    return judge(end, point, key, now, this.windowMs);
  }

  private prune(now: number): void {
    // Insertion order is close order: the oldest ends are first.
    for (const [id, end] of this.ended) {
      if (this.ended.size <= MAX_REMEMBERED && now - end.closedAt <= 2 * this.windowMs) return;
      this.ended.delete(id);
    }
  }
}

/**
 * The verdict on a resume of a stream that ended (here, or in the journal): proven only within the
 * window, for the same normalised request, at or before its last seq.
 */
export function judge(
  end: Ended,
  point: ResumePoint,
  key: string,
  now: number,
  windowMs: number,
): ResumeVerdict {
  if (now - end.closedAt > windowMs) return { resumed: false, reason: 'expired' };
  if (end.key !== key) return { resumed: false, reason: 'request_mismatch' };
  if (point.seq > end.lastSeq) return { resumed: false, reason: 'seq_ahead' };
  return { resumed: true, missedFrames: end.lastSeq - point.seq };
}
