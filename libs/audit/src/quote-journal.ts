import { STREAM_LEDGER, type JournalTopic } from '@app/events';
import { BatchAppender, MAX_RECORD_BYTES } from '@app/event-log';
import {
  encodeFrameRecord,
  encodeQuoteRecord,
  encodeStreamClose,
  encodeStreamOpen,
  journalRecord,
} from '@app/journal';
import { SOLVER_VERSION } from '@app/routing';
import { leafHashOfText, type Hash } from '@app/transparency';
import type {
  FrameEntry,
  JournalEntry,
  JournalMode,
  QuoteJournalOptions,
  StreamEvent,
} from './journal-entry';
import { sha256Hex, sha256HexOfBytes } from './sha256';

/** A record queued with its text built: its leaf hash, and when it is queued (or appended, strict). */
export interface Built {
  readonly leafHash: Hash;
  readonly queued: Promise<void>;
}

/** What an entry holds besides its texts (the request, positions, closures): a generous estimate. */
const ENTRY_OVERHEAD = 1024;

interface Pending {
  /** REST answers go to `quotes`, stream ticks and frames to `stream`. */
  readonly topic: JournalTopic | typeof STREAM_LEDGER;
  readonly key: string;
  /** Estimated memory held (ENTRY_OVERHEAD plus its texts), counted against maxQueuedBytes. */
  bytes: number;
  /** The record's JSON text, or what builds it (after the response's turn: see prepare()). */
  value: string | (() => string);
  /** The record without the response (its hash only), for a response too large for the log. */
  hashOnly?: () => string;
  /** leafHash of the record text, when a receipt named it (the transparency log takes it as is). */
  readonly leaf: Hash | undefined;
  readonly done: () => void;
  readonly fail: (e: Error) => void;
}

/**
 * Appends one QuoteRecord per served response, keyed by requestId: REST answers to the `quotes`
 * topic, the stream's ticks and frames to the `stream` topic (each topic is retained on its own
 * bound, so stream traffic cannot push REST quotes out; docs/replay.md "Write policy"). The queue
 * and its retries are a BatchAppender with one lane per topic; when to append is this journal's.
 */
export class QuoteJournal {
  private readonly appender: BatchAppender<Pending>;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private preparing: NodeJS.Immediate | null = null;
  private drained: (() => void)[] = [];
  private closed = false;
  private recorded = 0;
  readonly mode: JournalMode;

  constructor(private readonly options: QuoteJournalOptions) {
    this.mode = options.mode ?? 'batched';
    // Never sooner than max(100 ms, flushMs) after a failure, as before jitter: a refusing log is
    // not asked every turn.
    const floorMs = Math.max(100, options.flushMs ?? 20);
    this.appender = new BatchAppender<Pending>({
      write: (batch) =>
        options.log.append(
          batch[0]!.topic,
          batch.map((p) => {
            this.built(p);
            return { key: p.key, value: fitting(p) };
          }),
        ),
      sizeOf: (p) => p.bytes,
      maxBatch: options.maxBatch ?? 500,
      laneOf: (p) => p.topic,
      backoff: { initialMs: floorMs, maxMs: Math.max(floorMs, 1_000), floorMs },
      onWritten: (batch) => {
        // The transparency log's leaves, in the order the log accepted them (receipts on only).
        options.onAppended?.(
          batch[0]!.topic,
          batch.map((p) => ({ key: p.key, value: textOf(p), leafHash: p.leaf })),
        );
        for (const p of batch) p.done();
        this.release();
      },
      // Entries the log can never take (too large even without the response) are dropped.
      onRefused: (batch, e) => {
        for (const p of batch) p.fail(e);
      },
      // Strict callers learn at once (their response should fail); batched entries stay queued.
      abandon: (p, e) => {
        if (p.fail === noop) return false;
        p.fail(e);
        return true;
      },
      onFailure: (e) => {
        // Entries already queued stay queued; their callers stop waiting (new ones are refused).
        this.release();
        this.options.onError?.(e);
      },
    });
  }

  /** Counters for /health and tests. */
  get stats(): { recorded: number; appended: number; failures: number; refused: number } {
    const { written, failures, refused } = this.appender.counts;
    return { recorded: this.recorded, appended: written, failures, refused };
  }

  /** Journal one response. Batched: resolves when queued. Strict: resolves when the log accepted it. */
  record(entry: JournalEntry): Promise<void> {
    return this.enqueue(
      entry.kind === 'rest' ? 'quotes' : 'stream',
      entry.request.requestId,
      ENTRY_OVERHEAD + entry.body.length,
      () => this.recordText(entry, this.options.storeResponses === true),
      () => this.recordText(entry, false),
    );
  }

  /**
   * record() with the record's text built now, for a receipt that names its leaf hash: the hash of
   * the record as the log will store it (one over the log's limit has lost its response here),
   * computed once for the receipt and the transparency log.
   */
  recordBuilt(entry: JournalEntry): Built {
    const store = this.options.storeResponses === true;
    const full = this.recordText(entry, store);
    const text = store ? fitText(full, () => this.recordText(entry, false)) : full;
    return this.enqueueBuilt('quotes', entry.request.requestId, text);
  }

  /** False while appends fail and the REST journal's queue is full: record() refuses (batched mode). */
  get accepting(): boolean {
    return this.accepts('quotes');
  }

  /** Whether `topic` takes entries now (false while appends fail and its queue is full, batched mode). */
  accepts(topic: JournalTopic | typeof STREAM_LEDGER): boolean {
    return !(this.appender.failing && this.appender.bytes(topic) >= this.maxBytes);
  }

  /** Journal one stream frame as a light record pointing at its tick (docs/replay.md). */
  recordFrame(frame: FrameEntry): Promise<void> {
    return this.enqueue('stream', frame.requestId, ENTRY_OVERHEAD + frame.body.length, () =>
      frameText(frame),
    );
  }

  /** recordFrame() with the record's text built now, for a receipt that names its leaf hash. */
  recordFrameBuilt(frame: FrameEntry): Built {
    return this.enqueueBuilt('stream', frame.requestId, frameText(frame));
  }

  private enqueueBuilt(topic: JournalTopic, key: string, text: string): Built {
    const leafHash = leafHashOfText(text);
    const bytes = ENTRY_OVERHEAD / 4 + text.length;
    return { leafHash, queued: this.enqueue(topic, key, bytes, () => text, undefined, leafHash) };
  }

  /** Journal a v2 stream's open or close in its own topic, keyed by its streamId (docs/replay.md). */
  recordStreamEvent(event: StreamEvent): Promise<void> {
    const text = event.type === 'stream_open' ? encodeStreamOpen(event) : encodeStreamClose(event);
    return this.enqueue(STREAM_LEDGER, event.streamId, ENTRY_OVERHEAD + text.length, () => text);
  }

  private get maxBytes(): number {
    return this.options.maxQueuedBytes;
  }

  private recordText(entry: JournalEntry, storeResponse: boolean): string {
    const record = journalRecord(
      {
        kind: entry.kind,
        request: entry.request,
        calculatedAt: entry.calculatedAt,
        routing: this.options.routing,
        solverVersion: this.options.solverVersion ?? SOLVER_VERSION,
        positions: entry.positions,
        status: entry.status,
        body: entry.body,
        storeResponse: false,
        responseBytes: entry.bytes?.length ?? Buffer.byteLength(entry.body, 'utf8'),
        responseSha256:
          entry.sha256?.toString('hex') ??
          (entry.bytes === undefined ? undefined : sha256HexOfBytes(entry.bytes)),
        ...(entry.cause === undefined ? {} : { cause: entry.cause }),
      },
      sha256Hex,
    );
    return encodeQuoteRecord(record, storeResponse ? entry.body : null);
  }

  /**
   * Queue an entry whose text is built after this turn (in the append, or in prepare() when the
   * append is later): hashing and serialising stay off the response path (the inputs are
   * immutable: strings and arrays copied per request).
   */
  private enqueue(
    topic: JournalTopic | typeof STREAM_LEDGER,
    key: string,
    bytes: number,
    value: () => string,
    hashOnly?: () => string,
    leaf?: Hash,
  ): Promise<void> {
    if (this.closed) return Promise.reject(new Error('quote journal is closed'));
    const failing = this.appender.failing;
    if (this.mode === 'batched' && !this.accepts(topic))
      return Promise.reject(
        new Error(
          `the event log refuses appends and ${this.appender.queued} journal entries (${this.appender.bytes(topic)} bytes of ${topic}) wait for it`,
        ),
      );
    this.recorded++;
    if (this.mode === 'strict') {
      const durable = new Promise<void>((done, fail) =>
        this.appender.push([{ topic, key, bytes, value, hashOnly, leaf, done, fail }]),
      );
      // Group commit: entries recorded in the same turn share one append.
      this.schedule(0);
      return durable;
    }
    this.appender.push([{ topic, key, bytes, value, hashOnly, leaf, done: noop, fail: noop }]);
    const flushMs = this.options.flushMs ?? 20;
    this.schedule(flushMs);
    const full = this.appender.queued >= (this.options.maxBatch ?? 500);
    if (full) this.schedule(0);
    // While appends fail, entries wait: their record text is built at once, so what waits is a
    // few hundred bytes each, not the response it was built from.
    if ((flushMs > 0 && !full) || failing) this.preparing ??= setImmediate(() => this.prepare());
    // Over the bound the caller waits for the queue to drain; while appends fail it is refused
    // instead (accepts()), never left waiting.
    if (!failing && this.appender.bytes(topic) > this.maxBytes)
      return new Promise<void>((res) => this.drained.push(res));
    return RESOLVED;
  }

  /** Append everything queued so far; resolves when it is in the log (or rejects on failure). */
  flush(): Promise<void> {
    this.cancelSchedule();
    return this.appender.flush();
  }

  /** Flush what is queued and refuse new entries. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.preparing !== null) clearImmediate(this.preparing);
    this.preparing = null;
    try {
      await this.flush();
    } finally {
      this.appender.stop();
    }
  }

  get queued(): number {
    return this.appender.queued;
  }

  /** Estimated bytes the queue holds now, all topics. */
  get queuedBytesTotal(): number {
    return this.appender.bytes();
  }

  /** True from a failed append until the next one succeeds (/health reports `degraded`). */
  get failing(): boolean {
    return this.appender.failing;
  }

  /**
   * Append at the end of this turn (ms 0) or in `ms`, unless an earlier append is already due.
   * While appends fail only the appender's retry appends batched entries; a strict entry is tried
   * at once (its caller waits for the answer).
   */
  private schedule(ms: number): void {
    if (this.immediate !== null || (this.appender.failing && this.mode === 'batched')) return;
    if (ms > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.appendNow();
      }, ms);
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.immediate = setImmediate(() => {
      this.immediate = null;
      this.appendNow();
    });
  }

  private appendNow(): void {
    if (this.mode === 'strict') this.appender.retryNow();
    else this.appender.kick();
  }

  private cancelSchedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** Callers held by the byte bound go on (entries were appended, or appends fail: see accepts). */
  private release(): void {
    const waiting = this.drained;
    this.drained = [];
    for (const w of waiting) w();
  }

  /**
   * Build the record text of the entries queued this turn (hash and JSON of each response), so
   * that work is spread over the turns that served them instead of bursting in the flush.
   */
  private prepare(): void {
    this.preparing = null;
    const q = this.appender.items;
    let i = q.length;
    while (i > 0 && typeof q[i - 1]!.value === 'function') i--;
    try {
      for (; i < q.length; i++) this.built(q[i]!);
    } catch {
      // Left for the flush, which reports the failure and keeps the entry queued.
    }
  }

  /** Build an entry's text, and count what it holds from then on (the text, not its sources). */
  private built(p: Pending): string {
    if (typeof p.value === 'string') return p.value;
    const text = textOf(p);
    // A record that fits the log needs no hash-only variant: dropping it frees the response too.
    if (text.length * 3 <= MAX_RECORD_BYTES) p.hashOnly = undefined;
    const before = p.bytes;
    p.bytes = ENTRY_OVERHEAD / 4 + text.length;
    this.appender.resized(p, before);
    return text;
  }
}

/**
 * The record text, without the response (its hash stays, so replay still checks the bytes) when
 * the whole record would be over the log's size limit.
 */
function fitting(p: Pending): string {
  const text = textOf(p);
  return p.hashOnly === undefined ? text : (p.value = fitText(text, p.hashOnly));
}

/** `text`, or `hashOnly()` when `text` is over the log's record size limit. */
function fitText(text: string, hashOnly: () => string): string {
  if (text.length * 3 <= MAX_RECORD_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_RECORD_BYTES) return text;
  return hashOnly();
}

/** The entry's record text, built now if it was not yet (and kept, should the append be retried). */
function textOf(p: Pending): string {
  if (typeof p.value === 'function') p.value = p.value();
  return p.value;
}

function noop(): void {}
const RESOLVED = Promise.resolve();

/** A frame's record text: a light record pointing at its tick. */
function frameText(frame: FrameEntry): string {
  return encodeFrameRecord({
    requestId: frame.requestId,
    tickId: frame.tickId,
    responseSha256: frame.sha256?.toString('hex') ?? sha256Hex(frame.body),
    responseBytes: Buffer.byteLength(frame.body, 'utf8'),
    calculatedAt: frame.calculatedAt,
    ...(frame.stream === undefined ? {} : { stream: frame.stream }),
  });
}
