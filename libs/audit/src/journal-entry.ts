import type {
  FrameStream,
  JournalPositions,
  JournalRequest,
  QuoteKind,
  StreamCloseRecord,
  StreamOpenRecord,
  TickCause,
} from '@app/journal';

/** One served response, as the API hands it over after serialising it. */
export interface JournalEntry {
  readonly kind: QuoteKind;
  /** The normalised request with the requestId the client received (and asOf, if asked). */
  readonly request: JournalRequest;
  /** RouteResult.calculatedAt: the solver's clock. */
  readonly calculatedAt: number;
  /** BookFeed.positions() taken together with the solve (same event-loop turn). */
  readonly positions: JournalPositions | Partial<Record<'books' | 'venues', readonly number[]>>;
  /** HTTP status for REST, null for a stream frame. */
  readonly status: number | null;
  /** The exact response text written to the socket. */
  readonly body: string;
  /**
   * `body`'s UTF-8 bytes when the caller encoded them to send (GET/POST /route): hashed and
   * measured as they are, instead of encoding the text again for each.
   */
  readonly bytes?: Uint8Array;
  /** A v2 stream's tick: why it was solved. */
  readonly cause?: TickCause;
}

/** One stream frame as sent: the subscriber's requestId, the tick it carries, the exact text. */
export interface FrameEntry {
  readonly requestId: string;
  readonly tickId: string;
  /** The tick's calculatedAt (age retention times the stream topic by it). */
  readonly calculatedAt: number;
  readonly body: string;
  /** A v2 stream's frame: its stream, seq, tick and ticksSkipped as its quote message said. */
  readonly stream?: FrameStream;
}

/** A v2 stream's open or close, as the API hands it to the journal. */
export type StreamEvent =
  | ({ readonly type: 'stream_open' } & Omit<StreamOpenRecord, 'v' | 'type'>)
  | ({ readonly type: 'stream_close' } & Omit<StreamCloseRecord, 'v' | 'type'>);
