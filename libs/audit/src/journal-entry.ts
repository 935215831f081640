import type { JournalTopic, STREAM_LEDGER } from '@app/events';
import type { EventLog } from '@app/event-log';
import type {
  FrameStream,
  JournalPositions,
  JournalRequest,
  QuoteKind,
  StreamCloseRecord,
  StreamOpenRecord,
  TickCause,
} from '@app/journal';
import type { RoutingConfig } from '@app/routing';
import type { Hash } from '@app/transparency';

// What the quote journal (quote-journal.ts) is given: its options, and the entries it records.

/**
 * `batched` (default): record() resolves once the entry is queued; the queue is appended to the
 * quotes topic `flushMs` after its first entry (0: at the end of the event-loop turn, once the
 * responses of that turn have been written) or at `maxBatch` entries. `strict`: record() resolves only once the
 * entry's append has been accepted by the log (Kafka: acks=-1 by every in-sync replica; embedded:
 * written to the segment file, and fdatasync'd when the log runs with fsync 'always'), so the
 * caller can hold the response until then. See docs/replay.md "Write policy".
 */
export type JournalMode = 'batched' | 'strict';

export interface QuoteJournalOptions {
  readonly log: EventLog;
  readonly routing: RoutingConfig;
  readonly mode?: JournalMode;
  /**
   * Batched mode: longest time an entry waits in memory before its append starts (default 20).
   * With 0 each turn's entries are appended in a setImmediate, i.e. right after the responses of
   * that turn were written: many small appends instead of a burst every flushMs. With a positive
   * value each entry's record text (hash, JSON) is still built right after its turn, so the
   * flush only writes.
   */
  readonly flushMs?: number;
  readonly maxBatch?: number;
  /**
   * Above this many bytes of queued entries in one topic (their estimated memory: the record text,
   * or the response and request it is built from) record() waits for the queue to drain
   * (backpressure, never loss); while appends are failing (a full disk, a broker outage) it refuses
   * instead, so the caller answers 503 rather than hang (JOURNAL_QUEUE_BYTES).
   */
  readonly maxQueuedBytes: number;
  /**
   * Keep each response body in its record (JOURNAL_RESPONSES=true), or only its hash and length
   * (default: a few hundred bytes per quote instead of the whole response; docs/replay.md).
   */
  readonly storeResponses?: boolean;
  /**
   * Told when an append fails; the batch stays queued and is retried after a pause (full jitter
   * between max(100 ms, flushMs) and a ceiling doubling from there to 1 s; docs/replay.md).
   */
  readonly onError?: (error: Error) => void;
  readonly solverVersion?: string;
  /**
   * Told of each batch the log accepted, with the records exactly as stored, in their order: the
   * origin's transparency log makes them its leaves (docs/audit.md "The log"). Unset: no cost.
   */
  readonly onAppended?: (
    topic: JournalTopic | typeof STREAM_LEDGER,
    records: readonly AppendedRecord[],
  ) => void;
}

/** One journal record as the log accepted it: its key and its text, byte for byte. */
export interface AppendedRecord {
  readonly key: string;
  readonly value: string;
  /** leafHash of `value` when the journal computed it already (a receipt named it). */
  readonly leafHash?: Hash;
}

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
  /** SHA-256 of the response bytes, when the caller has it (a receipt signs it): not hashed again. */
  readonly sha256?: Buffer;
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
  /** SHA-256 of `body`'s UTF-8 bytes, when the caller has it (a receipt signs it): not hashed again. */
  readonly sha256?: Buffer;
}

/** A v2 stream's open or close, as the API hands it to the journal. */
export type StreamEvent =
  | ({ readonly type: 'stream_open' } & Omit<StreamOpenRecord, 'v' | 'type'>)
  | ({ readonly type: 'stream_close' } & Omit<StreamCloseRecord, 'v' | 'type'>);
