import type { RouteParams } from '@app/request';
import type { CauseKind } from './server-messages';

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
  ) {}
}
