import type { EventRecord } from '@app/events';
import { BatchAppender, LogError, retryable, type RecordSink } from '@app/event-log';
import type { Random } from '@app/retry';
import type { IngestorLogger } from './options';

export interface RecordWriterOptions {
  readonly sink: RecordSink;
  readonly logger: IngestorLogger;
  /** Bytes of records held while the log refuses writes; past it queued book records are dropped. */
  readonly budgetBytes: number;
  /** Retry pauses after a failed write: full jitter under a ceiling doubling from initialMs to maxMs. */
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  /** Randomness of the jitter (seeded in tests; Math.random by default). */
  readonly random?: Random;
  /** Told the `exchangeId|symbol` of books that lost records (dropped or refused): resync them. */
  readonly onLost: (books: ReadonlySet<string>) => void;
  /** Told once writes succeed again after failing: publish a fresh snapshot of every book. */
  readonly onRecovered: () => void;
  /** Told every batch pushed (the listing republisher keeps the market and venue records). */
  readonly onPush?: (records: readonly EventRecord[]) => void;
  readonly now?: () => number;
}

/** Records written, dropped (shed, or deltas of a gapped book), refused; failed writes and outages. */
export interface WriterStats {
  readonly written: number;
  readonly dropped: number;
  readonly droppedBytes: number;
  readonly refused: number;
  readonly failures: number;
  readonly outages: number;
}

/** Records per write: bounds the latency of one append after an outage. */
const MAX_BATCH = 10_000;

/**
 * The ingestor's one way into the log: a single queue for every venue (a BatchAppender), so
 * per-book order holds whatever the sink does, one write in flight, records arriving meanwhile go
 * out as the next batch. It outlives the log: while writes fail (a broker outage, a full disk) it
 * keeps the batch and retries with backoff, holding new records up to `budgetBytes`; past that it
 * drops the queued book records (named and counted; market and venue records are kept) and, once
 * writes succeed again, has every book republished as a snapshot so every cache resynchronises. A
 * record the log refuses for its size is dropped, named, and its book resynced; never a crash.
 */
export class RecordWriter {
  private readonly appender: BatchAppender<EventRecord>;
  private failingSince: number | null = null;
  /** Books that lost records: their deltas are useless (a gap) until their next snapshot. */
  private readonly gapped = new Set<string>();
  /** The newest market or venue record written: writing it again changes nothing (see shed). */
  private lastListing: EventRecord | null = null;
  private readonly dropped = { records: 0, bytes: 0 };

  constructor(private readonly options: RecordWriterOptions) {
    this.appender = new BatchAppender<EventRecord>({
      write: (batch) => options.sink.write(batch),
      sizeOf,
      maxBatch: MAX_BATCH,
      backoff: options.backoff,
      ...(options.random === undefined ? {} : { random: options.random }),
      onWritten: (records) => {
        for (const r of records) if (r.type !== 'book') this.lastListing = r;
      },
      onRefused: (records, e) => this.refused(records, e),
      onFailure: (e, first) => this.failed(e, first),
      onRecovered: () => this.recovered(),
    });
  }

  /** Counters for tests and logs. */
  get stats(): WriterStats {
    const { written, refused, failures, outages } = this.appender.counts;
    return {
      written,
      dropped: this.dropped.records,
      droppedBytes: this.dropped.bytes,
      refused,
      failures,
      outages,
    };
  }

  push(records: readonly EventRecord[]): void {
    if (records.length === 0) return;
    this.options.onPush?.(records);
    const kept: EventRecord[] = [];
    for (const r of records) {
      if (r.type === 'book' && this.gapped.size > 0) {
        const key = `${r.exchangeId}|${r.symbol}`;
        if (r.snapshot) this.gapped.delete(key);
        else if (this.gapped.has(key)) {
          this.dropped.records++;
          continue;
        }
      }
      kept.push(r);
    }
    this.appender.push(kept);
    if (this.appender.failing && this.appender.bytes() > this.options.budgetBytes) this.shed();
    this.appender.kick();
  }

  /** Records waiting to be written. */
  get queued(): number {
    return this.appender.queued;
  }

  /** True from a failed write until the next one succeeds. */
  get failing(): boolean {
    return this.appender.failing;
  }

  /**
   * Write what is queued, giving up after `timeoutMs` if the log keeps refusing (the count of
   * records left unwritten is logged); resolves either way.
   */
  async close(timeoutMs = 5_000): Promise<void> {
    await this.appender.close(timeoutMs);
    if (this.appender.queued > 0)
      this.options.logger.error('ingestor stopped with records the log would not take', {
        records: this.appender.queued,
        bytes: this.appender.bytes(),
      });
  }

  /** Records the log refuses for their size: named, dropped, their books resynced. */
  private refused(records: readonly EventRecord[], err: LogError): void {
    const lost = new Set<string>();
    for (const r of records) {
      if (r.type !== 'venue') lost.add(`${r.exchangeId}|${r.symbol}`);
      this.options.logger.error('record refused by the log and dropped', {
        exchangeId: r.exchangeId.slice(0, 100),
        type: r.type,
        symbol: r.type === 'venue' ? undefined : r.symbol.slice(0, 100),
        error: err.message.slice(0, 300),
      });
    }
    this.lose(lost);
  }

  private recovered(): void {
    const now = this.options.now?.() ?? Date.now();
    this.options.logger.info('log writes resumed; every book is republished as a snapshot', {
      outageMs: now - (this.failingSince ?? now),
      dropped: this.dropped.records,
      queued: this.appender.queued,
    });
    this.failingSince = null;
    this.options.onRecovered();
  }

  private failed(e: Error, first: boolean): void {
    if (first) {
      this.failingSince = this.options.now?.() ?? Date.now();
      this.options.logger.error('log writes failing; holding records and retrying', {
        code: e instanceof LogError ? e.code : 'unavailable',
        error: e.message,
        retryable: retryable(e),
        budgetBytes: this.options.budgetBytes,
      });
    }
    if (this.appender.bytes() > this.options.budgetBytes) this.shed();
  }

  /**
   * Over budget during an outage: drop the oldest queued book records until half the budget is
   * used (market and venue records stay), then the deltas still queued for the books that lost
   * records (useless after the gap) up to their next queued snapshot. The newest records stay
   * queued, so the writer keeps retrying and notices when the log is back.
   */
  private shed(): void {
    const lost = new Set<string>();
    let dropped = 0;
    let bytes = 0;
    let over = this.appender.bytes() - this.options.budgetBytes / 2;
    // Records being written stay: the write settles them.
    this.appender.retain((r) => {
      if (r.type !== 'book') return true;
      const key = `${r.exchangeId}|${r.symbol}`;
      const healed = r.snapshot && over <= 0;
      if (over > 0 || (lost.has(key) && !healed)) {
        over -= sizeOf(r);
        dropped++;
        bytes += sizeOf(r);
        lost.add(key);
        return false;
      }
      if (healed) lost.delete(key);
      return true;
    });
    if (dropped === 0) return;
    // Something must stay queued, or nothing would try the log and notice it is back (then
    // republish every book): the newest listing record, whose second copy changes no state.
    if (this.appender.queued === 0 && this.lastListing !== null) {
      this.appender.push([this.lastListing]);
      bytes -= sizeOf(this.lastListing);
    }
    this.dropped.records += dropped;
    this.dropped.bytes += bytes;
    this.options.logger.warn('log outage outlasted the buffer budget: oldest queued book records dropped', {
      dropped,
      bytes,
      droppedTotal: this.dropped.records,
      budgetBytes: this.options.budgetBytes,
    });
    this.lose(lost);
  }

  /** Books that lost records: drop their deltas until a snapshot, and have them resynced. */
  private lose(books: ReadonlySet<string>): void {
    if (books.size === 0) return;
    for (const b of books) this.gapped.add(b);
    this.options.onLost(books);
  }
}

/** A record's size in the log, estimated without serialising it (about 24 bytes a level). */
function sizeOf(r: EventRecord): number {
  return r.type === 'book' ? 160 + 24 * (r.bids.length + r.asks.length) : 200;
}
