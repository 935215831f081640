import type { RouteRequest } from '@app/routing';

/** Which response a journal record covers: a REST answer or one stream frame. */
export type QuoteKind = 'rest' | 'stream';

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
 * @app/log PositionVector.
 */
export interface JournalPositions {
  readonly books: readonly number[];
  readonly venues: readonly number[];
}

/**
 * Quote journal record (docs/replay.md, docs/events.md "Quote record"): the value of every entry
 * of the `quotes` topic, keyed by requestId. Enough to recompute the response and prove it:
 * request, clock, configuration and log positions in; a SHA-256 of the response bytes out.
 */
export interface QuoteRecord {
  readonly v: 1;
  readonly type: 'quote';
  readonly requestId: string;
  readonly kind: QuoteKind;
  /** The solver's clock (RouteResult.calculatedAt), epoch ms. */
  readonly calculatedAt: number;
  /** The normalised request exactly as the solver received it (requestId included). */
  readonly request: RouteRequest;
  readonly config: JournalConfig;
  readonly positions: JournalPositions;
  /** HTTP status of a REST answer (200, 404, 501); null for a stream frame. */
  readonly status: number | null;
  /** Lowercase hex SHA-256 of the UTF-8 response bytes. */
  readonly responseSha256: string;
  /** Length of the response in UTF-8 bytes. */
  readonly responseBytes: number;
  /** The response itself (JSON), when the journal stores responses; null otherwise. */
  readonly response: unknown;
}
