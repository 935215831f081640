import { createHash } from 'node:crypto';
import type { JournalPositions } from '@app/journal';
import type { RouteParams } from '@app/request';

/** Why a quote was pushed (docs/api.md "Stream protocol v2"). */
export type CauseKind = 'open' | 'resume' | 'book' | 'listing' | 'staleness';

export interface FrameCause {
  readonly kind: CauseKind;
  /** The watched markets whose books moved since the previous tick (sorted). */
  readonly markets: readonly string[];
  /** The log positions the tick's solve read. */
  readonly positions: JournalPositions;
}

/** What a resume asked for came to: proven with missedFrames, or refused with a reason. */
export type ResumeVerdict =
  | { readonly resumed: true; readonly missedFrames: number }
  | {
      readonly resumed: false;
      readonly reason:
        'unknown_stream' | 'expired' | 'request_mismatch' | 'seq_ahead' | 'still_open' | 'not_closed';
    };

export interface QuoteFields {
  readonly id: string;
  readonly streamId: string;
  readonly seq: number;
  readonly tick: number;
  readonly ticksSkipped: number;
  readonly cause: FrameCause;
  readonly validUntil: number | null;
  /** The RouteResult text exactly as a v1 frame carries it (its own requestId). */
  readonly result: string;
  /** SHA-256 of `result`'s UTF-8 bytes in hex, when the caller has it. */
  readonly resultSha256?: string;
  /** The signed receipt of `result` (RECEIPTS=true): base64url, as the x-quote-receipt header. */
  readonly receipt?: string;
}

export type ErrorCode =
  | 'bad_message'
  | 'invalid_request'
  | 'no_market'
  | 'exact_out_multi_hop_unsupported'
  | 'duplicate_id'
  | 'unknown_id'
  | 'subscription_limit'
  | 'rate_limited'
  | 'journal_unavailable'
  | 'message_too_large';

export interface ErrorFields {
  readonly id: string | null;
  readonly op: string | null;
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
}

/** SHA-256 of text's UTF-8 bytes, lower-case hex. */
export const sha256Text = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The one place a quote message is built: the result text is spliced in unchanged, so its bytes
 * are the v1 frame's (and the journal's) and resultSha256 is their hash.
 */
export function quoteMessage(q: QuoteFields): string {
  const head = JSON.stringify({
    type: 'quote',
    id: q.id,
    streamId: q.streamId,
    seq: q.seq,
    tick: q.tick,
    ticksSkipped: q.ticksSkipped,
    cause: q.cause,
    validUntil: q.validUntil,
    resultSha256: q.resultSha256 ?? sha256Text(q.result),
    ...(q.receipt === undefined ? {} : { receipt: q.receipt }),
  });
  return `${head.slice(0, -1)},"result":${q.result}}`;
}

export interface WelcomeFields {
  readonly heartbeatMs: number;
  readonly pushFloorMs: number;
  readonly resumeWindowMs: number;
  readonly limits: {
    readonly subscriptionsPerAddress: number;
    readonly messagesPerSec: number;
    readonly messagesBurst: number;
    readonly messageBytes: number;
    readonly subscribesPerMin: number;
  };
  readonly serverTime: number;
}

export const welcomeMessage = (w: WelcomeFields): string =>
  JSON.stringify({ type: 'welcome', protocol: 'routestream.v2', ...w });

export const subscribedMessage = (
  id: string,
  streamId: string,
  request: RouteParams,
  resume: ResumeVerdict | null,
): string => JSON.stringify({ type: 'subscribed', id, streamId, request, resume });

export const unsubscribedMessage = (id: string, streamId: string, lastSeq: number): string =>
  JSON.stringify({ type: 'unsubscribed', id, streamId, lastSeq });

export const errorMessage = (e: ErrorFields): string => JSON.stringify({ type: 'error', ...e });

export const pongMessage = (id: string, serverTime: number): string =>
  JSON.stringify({ type: 'pong', id, serverTime });

export interface SubscriptionState {
  readonly id: string;
  readonly streamId: string;
  readonly seq: number;
  readonly validUntil: number | null;
}

export const heartbeatMessage = (serverTime: number, subscriptions: readonly SubscriptionState[]): string =>
  JSON.stringify({ type: 'heartbeat', serverTime, subscriptions });

export const listMessage = (
  subscriptions: readonly (SubscriptionState & { request: RouteParams })[],
): string => JSON.stringify({ type: 'subscriptions', subscriptions });

export const goawayMessage = (reason: string, reconnectAfterMs: number): string =>
  JSON.stringify({ type: 'goaway', reason, reconnectAfterMs });
