import type { EventLog } from '@app/log';
import {
  journalRecord,
  type FrameRecord,
  type JournalPositions,
  type JournalRequest,
  type QuoteKind,
} from '@app/journal';
import { SOLVER_VERSION, type RoutingConfig } from '@app/routing';
import { sha256Hex } from './sha256';

/**
 * `batched` (default): record() resolves once the entry is queued; the queue is appended to the
 * quotes topic every `flushMs` or `maxBatch` entries. `strict`: record() resolves only once the
 * entry's append has been accepted by the log (Kafka: acks=-1 by every in-sync replica; embedded:
 * written to the segment file, and fdatasync'd when the log runs with fsync 'always'), so the
 * caller can hold the response until then. See docs/replay.md "Write policy".
 */
export type JournalMode = 'batched' | 'strict';

export interface QuoteJournalOptions {
  readonly log: EventLog;
  readonly routing: RoutingConfig;
  readonly mode?: JournalMode;
  /** Batched mode: longest time an entry waits in memory before its append starts. */
  readonly flushMs?: number;
  readonly maxBatch?: number;
  /** Above this many queued entries record() waits for the queue to drain (backpressure, never loss). */
  readonly maxQueued?: number;
  /** Keep each response in its record (default) or only its hash. */
  readonly storeResponses?: boolean;
  /** Told when an append fails; the batch stays queued and is retried. */
  readonly onError?: (error: Error) => void;
  readonly solverVersion?: string;
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
}

/** One stream frame as sent: the subscriber's requestId, the tick it carries, the exact text. */
export interface FrameEntry {
  readonly requestId: string;
  readonly tickId: string;
  readonly body: string;
}

interface Pending {
  readonly key: string;
  /** Builds the record's JSON text at append time. */
  readonly value: () => string;
  readonly done: () => void;
  readonly fail: (e: Error) => void;
}

const NULL_RESPONSE = '"response":null}';

/** Appends one QuoteRecord per served response to the `quotes` topic, keyed by requestId. */
export class QuoteJournal {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private drained: (() => void)[] = [];
  private closed = false;
  readonly mode: JournalMode;
  /** Counters for /health and tests. */
  readonly stats = { recorded: 0, appended: 0, failures: 0 };

  constructor(private readonly options: QuoteJournalOptions) {
    this.mode = options.mode ?? 'batched';
  }

  /** Journal one response. Batched: resolves when queued. Strict: resolves when the log accepted it. */
  record(entry: JournalEntry): Promise<void> {
    return this.enqueue(entry.request.requestId, () => this.recordText(entry));
  }

  /** Journal one stream frame as a light record pointing at its tick (docs/replay.md). */
  recordFrame(frame: FrameEntry): Promise<void> {
    return this.enqueue(frame.requestId, () => {
      const record: FrameRecord = {
        v: 1,
        type: 'quote_frame',
        requestId: frame.requestId,
        tickId: frame.tickId,
        responseSha256: sha256Hex(frame.body),
        responseBytes: Buffer.byteLength(frame.body, 'utf8'),
      };
      return JSON.stringify(record);
    });
  }

  private recordText(entry: JournalEntry): string {
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
        responseBytes: Buffer.byteLength(entry.body, 'utf8'),
      },
      sha256Hex,
    );
    const value = JSON.stringify(record);
    // The response is already JSON text: splice it in rather than parse and re-serialise it.
    return (this.options.storeResponses ?? true) && value.endsWith(NULL_RESPONSE)
      ? `${value.slice(0, -NULL_RESPONSE.length)}"response":${entry.body}}`
      : value;
  }

  /**
   * Queue an entry whose text is built when its batch is appended: hashing and serialising stay
   * off the response path (the inputs are immutable: strings and arrays copied per request).
   */
  private enqueue(key: string, value: () => string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('quote journal is closed'));
    this.stats.recorded++;
    if (this.mode === 'strict') {
      const durable = new Promise<void>((done, fail) => this.queue.push({ key, value, done, fail }));
      // Group commit: entries recorded in the same turn share one append.
      this.schedule(0);
      return durable;
    }
    this.queue.push({ key, value, done: noop, fail: noop });
    this.schedule(this.options.flushMs ?? 20);
    if (this.queue.length >= (this.options.maxBatch ?? 500)) this.schedule(0);
    if (this.queue.length > (this.options.maxQueued ?? 50_000))
      return new Promise<void>((res) => this.drained.push(res));
    return RESOLVED;
  }

  /** Append everything queued so far; resolves when it is in the log (or rejects on failure). */
  async flush(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    const run = this.appendQueued();
    this.flushing = run;
    try {
      await run;
    } finally {
      this.flushing = null;
    }
  }

  /** Flush what is queued and refuse new entries. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  get queued(): number {
    return this.queue.length;
  }

  private schedule(ms: number): void {
    if (this.timer !== null && ms > 0) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((e: unknown) => {
        // The batch is still queued; try again after a pause instead of dropping audit records.
        this.stats.failures++;
        this.options.onError?.(e instanceof Error ? e : new Error(String(e)));
        this.schedule(Math.max(100, this.options.flushMs ?? 20));
      });
    }, ms);
  }

  private async appendQueued(): Promise<void> {
    const max = this.options.maxBatch ?? 500;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, max);
      try {
        await this.options.log.append(
          'quotes',
          batch.map((p) => ({ key: p.key, value: p.value() })),
        );
      } catch (e) {
        const error = e instanceof Error ? e : new Error(String(e));
        // Strict callers learn at once (their response should fail); batched entries stay queued.
        const strict = batch.filter((p) => p.fail !== noop);
        for (const p of strict) p.fail(error);
        this.queue = this.queue.filter((p) => !strict.includes(p));
        throw error;
      }
      this.queue.splice(0, batch.length);
      this.stats.appended += batch.length;
      for (const p of batch) p.done();
      const waiting = this.drained;
      this.drained = [];
      for (const w of waiting) w();
    }
  }
}

function noop(): void {}
const RESOLVED = Promise.resolve();
