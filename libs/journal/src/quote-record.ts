import type { RouteRequest } from '@app/routing';

/**
 * Which result a journal record covers: a REST answer, one stream frame journalled in full, or a
 * stream tick (one solve shared by the frames of every subscriber with the same request; no
 * client received the tick's own requestId, each frame is a FrameRecord pointing at it).
 */
export type QuoteKind = 'rest' | 'stream' | 'stream_tick';

/** The normalised request, plus `asOf` when the client asked for the books of a past instant. */
export type JournalRequest = RouteRequest & { readonly asOf?: number };

/** The routing configuration a result was computed with, and the solver that computed it. */
export interface JournalConfig {
  readonly staleBookMs: number;
  readonly stalenessPenaltyBps: number;
  readonly defaultTakerFeeRate: number;
  /** `SOLVER_VERSION` of @app/routing when the result was computed. */
  readonly solverVersion: string;
}

/**
 * The cache's log position at compute time: per partition, the next offset to read (so every
 * entry below it was folded), of the `books` and `venues` topics. Structurally a complete
 * @app/event-log PositionVector.
 */
export interface JournalPositions {
  readonly books: readonly number[];
  readonly venues: readonly number[];
}

/**
 * Quote journal record (docs/replay.md "Quote record"), decoded: the value of every entry of the
 * `quotes` topic, keyed by requestId. Enough to recompute the response and prove it: request,
 * clock, configuration and log positions in; a SHA-256 of the response bytes out. Format v2
 * stores the request and config compactly (compact.ts); once read, every version looks like this.
 */
export interface QuoteRecord {
  /** The format the record was written in: 1 (full request and response) or 2 (compact). */
  readonly v: 1 | 2;
  readonly type: 'quote';
  readonly requestId: string;
  readonly kind: QuoteKind;
  /** The solver's clock (RouteResult.calculatedAt), epoch ms. */
  readonly calculatedAt: number;
  /** The normalised request exactly as the solver received it (requestId included). */
  readonly request: JournalRequest;
  readonly config: JournalConfig;
  readonly positions: JournalPositions;
  /** HTTP status of a REST answer (200, 404, 501); null for a stream frame. */
  readonly status: number | null;
  /** Lowercase hex SHA-256 of the UTF-8 response bytes. */
  readonly responseSha256: string;
  /** Length of the response in UTF-8 bytes. */
  readonly responseBytes: number;
  /** The response itself (JSON), when the journal stored it (JOURNAL_RESPONSES); null otherwise. */
  readonly response: unknown;
  /**
   * A v2 stream's tick only: why it was solved. Absent on REST answers, on ticks of the one-route
   * stream (v1 clients) and in records written before it was.
   */
  readonly cause?: TickCause;
}

/** Why a v2 stream's tick was solved (the `cause` of the quote messages it was sent in). */
export const TICK_CAUSES = ['open', 'resume', 'book', 'venue', 'listing', 'staleness'] as const;
export type TickCauseKind = (typeof TICK_CAUSES)[number];

/** A tick's cause: its kind and the watched markets whose books moved since the group's previous tick. */
export interface TickCause {
  readonly kind: TickCauseKind;
  /** Sorted market symbols (empty for open, resume and staleness). */
  readonly markets: readonly string[];
}

/** Which v2 stream frame a frame record was: what its quote message said around the result. */
export interface FrameStream {
  readonly streamId: string;
  /** The subscription's client-chosen id (`route` on /stream/route?envelope=v2). */
  readonly id: string;
  /** 1 = the opening frame, +1 per frame sent. */
  readonly seq: number;
  readonly tick: number;
  readonly ticksSkipped: number;
}

/**
 * One stream frame sent to one subscriber (docs/replay.md "Stream frames"): the frame is the
 * tick's result with the subscriber's own requestId, so the record only names the tick and hashes
 * the bytes sent. Keyed by the frame's requestId like every journal entry.
 */
export interface FrameRecord {
  /** 1: hash in hex as responseSha256; 2: in base64url as sha256 (compact.ts). */
  readonly v: 1 | 2;
  readonly type: 'quote_frame';
  /** The frame's own requestId (what the subscriber received). */
  readonly requestId: string;
  /** requestId of the `stream_tick` QuoteRecord whose result this frame carries. */
  readonly tickId: string;
  readonly responseSha256: string;
  readonly responseBytes: number;
  /**
   * The tick's calculatedAt (the frame carries the tick's result, so its own body says the same),
   * so that age retention can time a segment of frames; absent in records written before it was.
   */
  readonly calculatedAt?: number;
  /** A v2 stream's frame only: its stream, seq and tick; absent for v1 frames and older records. */
  readonly stream?: FrameStream;
}

/** A journal entry that stands for a result sent: a quote (or tick), or a stream frame. */
export type JournalEntryRecord = QuoteRecord | FrameRecord;

/** Any value of the journal topics: `stream` also holds v2 streams' opens and closes. */
export type JournalValue = JournalEntryRecord | StreamOpenRecord | StreamCloseRecord;

/** A normalised stream request: a route request without its requestId (each frame has its own). */
export type StreamRequest = Omit<RouteRequest, 'requestId'>;

/** Where a reconnecting client said it had got to: the stream it had and the last seq it read. */
export interface StreamResumePoint {
  readonly streamId: string;
  readonly seq: number;
}

/** Why a resume was refused (docs/api.md "Stream protocol v2"). */
export const RESUME_REFUSALS = [
  'unknown_stream',
  'expired',
  'request_mismatch',
  'seq_ahead',
  'still_open',
  'not_closed',
] as const;

/** What a resume came to: proven, with the frames the client missed, or refused with a reason. */
export type StreamResumeVerdict =
  | { readonly resumed: true; readonly missedFrames: number }
  | { readonly resumed: false; readonly reason: (typeof RESUME_REFUSALS)[number] };

/**
 * A v2 stream opened (docs/replay.md "Stream opens and closes"), keyed by its streamId in the
 * `stream` topic: the request it watches, and for a resume the point claimed and the verdict given.
 */
export interface StreamOpenRecord {
  readonly v: 2;
  readonly type: 'stream_open';
  readonly streamId: string;
  /** The subscription's client-chosen id (`route` on /stream/route?envelope=v2). */
  readonly id: string;
  /** When it opened (epoch ms, the service clock). */
  readonly at: number;
  /** `stream`: a subscription on GET /stream; `stream/route`: /stream/route?envelope=v2. */
  readonly path: 'stream' | 'stream/route';
  readonly request: StreamRequest;
  /** The resume point the client named; null when it asked for none. */
  readonly resume: StreamResumePoint | null;
  /** The verdict it was given; null when it asked for no resume. */
  readonly verdict: StreamResumeVerdict | null;
}

/** Why a stream ended. */
export const CLOSE_REASONS = ['unsubscribed', 'closed', 'shutdown'] as const;

/**
 * A v2 stream ended, keyed by its streamId: with its request and last seq, it is what proves a
 * later resume of it (on any replica reading the same journal).
 */
export interface StreamCloseRecord {
  readonly v: 2;
  readonly type: 'stream_close';
  readonly streamId: string;
  readonly id: string;
  /** When it ended (epoch ms, the service clock). */
  readonly at: number;
  /** The seq of the last frame sent (0: none). */
  readonly lastSeq: number;
  /** `unsubscribed` by the client, the socket `closed`, or the server's `shutdown`. */
  readonly reason: (typeof CLOSE_REASONS)[number];
  readonly request: StreamRequest;
}
