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
}

/** Any value of the `quotes` topic. */
export type JournalEntryRecord = QuoteRecord | FrameRecord;
