import type { FrameStream } from '@app/journal';
import type { RouteParams } from '@app/request';
import type { ResumePoint } from './client-messages';
import type { CauseKind, ResumeVerdict } from './server-messages';

/**
 * One v2 subscription's envelope state: its client id, the streamId the server minted for it, the
 * last seq sent (seq is +1 per frame sent, never reused) and the tick that frame carried.
 */
export class Subscription {
  seq = 0;
  /** The `tick` of the last frame sent (0: none yet). */
  lastSentTick = 0;
  /** The validUntil of the last frame sent. */
  validUntil: number | null = null;

  constructor(
    readonly id: string,
    readonly streamId: string,
    readonly params: RouteParams,
    /** The opening frame's cause: `resume` when the client named a stream to resume. */
    readonly openCause: Extract<CauseKind, 'open' | 'resume'>,
    /** When it opened (epoch ms, the service clock). */
    readonly openedAt: number,
    /** Opened as `/stream/route?...&envelope=v2` (a one-way socket of its own), not on /stream. */
    readonly oldPath = false,
    /** The resume point the client named and the verdict it was given; null when it named none. */
    readonly claimed: { readonly point: ResumePoint; readonly verdict: ResumeVerdict } | null = null,
  ) {}

  /**
   * The envelope of the next frame sent, `tick` being the subscriber's tick count now: seq +1,
   * ticksSkipped the states since the last frame sent that it never got.
   */
  next(tick: number): FrameStream {
    const stream = {
      streamId: this.streamId,
      id: this.id,
      seq: this.seq + 1,
      tick,
      ticksSkipped: tick - this.lastSentTick - 1,
    };
    this.seq = stream.seq;
    this.lastSentTick = tick;
    return stream;
  }

  /**
   * A frame taken by next() was not sent (the strict journal refused it): when no later frame was
   * taken since, its seq is given back (seq stays contiguous) and the next frame counts its tick
   * in ticksSkipped.
   */
  unsent(stream: FrameStream): void {
    if (this.seq !== stream.seq) return;
    this.seq--;
    this.lastSentTick = stream.tick - stream.ticksSkipped - 1;
  }
}
