import type { RoutingConfig } from '@app/routing';
import type {
  FrameRecord,
  JournalPositions,
  JournalRequest,
  QuoteKind,
  QuoteRecord,
  TickCause,
} from './quote-record';

/** SHA-256 of a string's UTF-8 bytes as lowercase hex; an argument so this lib stays pure. */
export type Sha256 = (text: string) => string;

/** What the API knows when it has serialised a response. */
export interface JournalInput {
  readonly kind: QuoteKind;
  readonly request: JournalRequest;
  readonly calculatedAt: number;
  readonly routing: RoutingConfig;
  readonly solverVersion: string;
  /** The position vector of the book cache the result was computed from. */
  readonly positions: Partial<Record<'books' | 'venues' | 'quotes', readonly number[]>>;
  readonly status: number | null;
  /** The exact response text sent to the client. */
  readonly body: string;
  /** Keep the response in the record (true) or only its hash (false). */
  readonly storeResponse: boolean;
  /** UTF-8 length of `body` when the caller has a faster way to count it (Buffer.byteLength). */
  readonly responseBytes?: number;
  /** `sha256(body)` when the caller hashed the bytes it sent already (hashed once, not twice). */
  readonly responseSha256?: string;
  /** A v2 stream's tick: why it was solved. */
  readonly cause?: TickCause;
}

/** UTF-8 length of a string without any platform API. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Build the journal record of one response. */
export function journalRecord(input: JournalInput, sha256: Sha256): QuoteRecord {
  const positions: JournalPositions = {
    books: [...(input.positions.books ?? [])],
    venues: [...(input.positions.venues ?? [])],
  };
  return {
    v: 2,
    type: 'quote',
    requestId: input.request.requestId,
    kind: input.kind,
    calculatedAt: input.calculatedAt,
    request: input.request,
    config: {
      staleBookMs: input.routing.staleBookMs,
      stalenessPenaltyBps: input.routing.stalenessPenaltyBps,
      defaultTakerFeeRate: input.routing.defaultTakerFeeRate,
      solverVersion: input.solverVersion,
    },
    positions,
    status: input.status,
    responseSha256: input.responseSha256 ?? sha256(input.body),
    responseBytes: input.responseBytes ?? utf8Length(input.body),
    response: input.storeResponse ? (JSON.parse(input.body) as unknown) : null,
    ...(input.cause === undefined ? {} : { cause: input.cause }),
  };
}

/** The routing configuration a record was computed with. */
export function recordedRouting(record: QuoteRecord): RoutingConfig {
  const { staleBookMs, stalenessPenaltyBps, defaultTakerFeeRate } = record.config;
  return { staleBookMs, stalenessPenaltyBps, defaultTakerFeeRate };
}

/**
 * The QuoteRecord a stream frame stands for: its tick's record with the frame's requestId, hash
 * and length. The frame's bytes are the tick's result with the subscriber's requestId spliced in,
 * which is what re-solving the tick's request under the frame's requestId gives.
 */
export function frameAsQuote(tick: QuoteRecord, frame: FrameRecord): QuoteRecord {
  const response = tick.response;
  return {
    ...tick,
    requestId: frame.requestId,
    kind: 'stream',
    request: { ...tick.request, requestId: frame.requestId },
    responseSha256: frame.responseSha256,
    responseBytes: frame.responseBytes,
    // Spreading keeps requestId where it was (first), as the API's splice does.
    response:
      typeof response === 'object' && response !== null && !Array.isArray(response)
        ? { ...response, requestId: frame.requestId }
        : response,
  };
}
