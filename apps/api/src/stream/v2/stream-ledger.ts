import type { Logger } from '@nestjs/common';
import type { QuoteJournal } from '@app/audit';
import type { EventLog } from '@app/event-log';
import { errorMessage as messageOf } from '@app/retry';
import type { RouteParams } from '@app/request';
import type { ResumePoint } from './client-messages';
import { LedgerView } from './ledger-view';
import { ResumePoints } from './resume-points';
import type { ResumeVerdict } from './server-messages';
import type { Subscription } from './subscription';

/**
 * How many of the newest records of each stream ledger partition a process reads when it first
 * looks a resume up (then only what is appended): a close older than that, under heavy stream
 * traffic, is answered unknown_stream.
 */
export const RESUME_SCAN_ENTRIES = 16_384;

/** Why a v2 stream ended, as its close record says. */
export type CloseReason = 'unsubscribed' | 'closed' | 'shutdown';

/**
 * Where a v2 stream's life is kept: its open and close in this process's resume points (what a
 * resume is checked against) and in the journal (docs/replay.md "Stream opens and closes"), so
 * `replay stream` can list a stream and its resume verdict from the journal alone.
 */
export class StreamLedger {
  private readonly resumes: ResumePoints;
  private readonly view: LedgerView | null;

  constructor(
    /** How long a closed stream can be resumed (STREAM_RESUME_WINDOW_MS). */
    windowMs: number,
    private readonly journal: QuoteJournal,
    private readonly now: () => number,
    private readonly logger: Logger,
    /** The log holding the journal, read for resume points this process does not know; null: not read. */
    log: EventLog | null = null,
  ) {
    this.resumes = new ResumePoints(windowMs);
    this.view = log === null ? null : new LedgerView(log, windowMs, RESUME_SCAN_ENTRIES);
  }

  /**
   * Whether a resume point can be proven, and what was missed: from this process's streams, else
   * (a stream another replica served, or this one before a restart) from the stream ledger's
   * records as this process has read them, up to every record appended before the call.
   * `still_open` only when this process holds the stream open; `not_closed` when the ledger has
   * its open and no close.
   */
  verdict(point: ResumePoint, params: RouteParams): ResumeVerdict | Promise<ResumeVerdict> {
    const key = JSON.stringify(params);
    const local = this.resumes.verdict(point, key, this.now());
    if (local.resumed || local.reason !== 'unknown_stream' || this.view === null) return local;
    return this.view.verdict(point, key, this.now).then(
      (v) =>
        // An open without a close: the stream is live on another process, or its process stopped
        // without closing it (a crash, a kill). Either way its last seq is not known, so nothing
        // can be proven; which of the two cannot be told from the ledger, so the reason says only
        // what is known.
        !v.resumed && v.reason === 'still_open' ? { resumed: false, reason: 'not_closed' } : v,
      (e: unknown) => {
        this.logger.error(`resume point not looked up in the journal: ${messageOf(e)}`);
        return local;
      },
    );
  }

  /**
   * Read the stream ledger now: after a restart or a deploy every client reconnects and resumes at
   * once, and the first read (the newest RESUME_SCAN_ENTRIES of each partition) would hold them all.
   */
  warm(): void {
    this.view
      ?.warm()
      .catch((e: unknown) =>
        this.logger.warn(
          `stream ledger not read ahead of resumes (the first resume reads it): ${messageOf(e)}`,
        ),
      );
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
