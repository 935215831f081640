import type { Logger } from '@nestjs/common';
import type { QuoteJournal } from '@app/audit';
import { errorMessage as messageOf } from '@app/retry';
import type { RouteParams } from '@app/request';
import type { ResumePoint } from './client-messages';
import { ResumePoints } from './resume-points';
import type { ResumeVerdict } from './server-messages';
import type { Subscription } from './subscription';

/** Why a v2 stream ended, as its close record says. */
export type CloseReason = 'unsubscribed' | 'closed' | 'shutdown';

/**
 * Where a v2 stream's life is kept: its open and close in this process's resume points (what a
 * resume is checked against) and in the journal (docs/replay.md "Stream opens and closes"), so
 * `replay stream` can list a stream and its resume verdict from the journal alone.
 */
export class StreamLedger {
  private readonly resumes: ResumePoints;

  constructor(
    /** How long a closed stream can be resumed (STREAM_RESUME_WINDOW_MS). */
    windowMs: number,
    private readonly journal: QuoteJournal,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {
    this.resumes = new ResumePoints(windowMs);
  }

  /** Whether a resume point can be proven, and what was missed. */
  verdict(point: ResumePoint, params: RouteParams): ResumeVerdict {
    return this.resumes.verdict(point, JSON.stringify(params), this.now());
  }

  /** The stream is admitted (its opening frame is about to go out). */
  opened(s: Subscription): void {
    this.resumes.opened(s.streamId, JSON.stringify(s.params));
    this.write(
      this.journal.recordStreamEvent({
        type: 'stream_open',
        streamId: s.streamId,
        id: s.id,
        at: s.openedAt,
        path: s.oldPath ? 'stream/route' : 'stream',
        request: s.params,
        resume: s.claimed?.point ?? null,
        verdict: s.claimed?.verdict ?? null,
      }),
    );
  }

  /** The stream ended after its last frame (seq `s.seq`). */
  closed(s: Subscription, reason: CloseReason): void {
    const at = this.now();
    this.resumes.closed(s.streamId, JSON.stringify(s.params), s.seq, at);
    this.write(
      this.journal.recordStreamEvent({
        type: 'stream_close',
        streamId: s.streamId,
        id: s.id,
        at,
        lastSeq: s.seq,
        reason,
        request: s.params,
      }),
    );
  }

  private write(journalled: Promise<void>): void {
    // The stream goes on without its record (as a batched frame would): the log says why.
    journalled.catch((e: unknown) => this.logger.error(`quote journal (stream record): ${messageOf(e)}`));
  }
}
