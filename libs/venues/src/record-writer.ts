import type { EventRecord } from '@app/events';
import { LogError, retryable, type RecordSink } from '@app/log';
import type { IngestorLogger } from './options';

export interface RecordWriterOptions {
  readonly sink: RecordSink;
  readonly logger: IngestorLogger;
  /** Bytes of records held while the log refuses writes; past it queued book records are dropped. */
  readonly budgetBytes: number;
  /** Retry pause after a failed write: initialMs doubling up to maxMs. */
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  /** Told the `exchangeId|symbol` of books that lost records (dropped or refused): resync them. */
  readonly onLost: (books: ReadonlySet<string>) => void;
  /** Told once writes succeed again after failing: publish a fresh snapshot of every book. */
  readonly onRecovered: () => void;
  /** Told every batch pushed (the listing republisher keeps the market and venue records). */
  readonly onPush?: (records: readonly EventRecord[]) => void;
  readonly now?: () => number;
}

/** Records per write: bounds the latency of one append after an outage. */
const MAX_BATCH = 10_000;

/**
 * The ingestor's one way into the log: a single queue for every venue, so per-book order holds
 * whatever the sink does, one write in flight, records arriving meanwhile go out as the next
 * batch. It outlives the log: while writes fail (a broker outage, a full disk) it keeps the batch
 * and retries with backoff, holding new records up to `budgetBytes`; past that it drops the
 * queued book records (named and counted; market and venue records are kept) and, once writes
 * succeed again, has every book republished as a snapshot so every cache resynchronises. A
 * record the log refuses for its size is dropped, named, and its book resynced; never a crash.
 */
export class RecordWriter {
  private queue: EventRecord[] = [];
  private queuedBytes = 0;
  private running: Promise<void> | null = null;
  /** Records at the head of the queue handed to the sink and not yet settled. */
  private inFlight = 0;
  private failingSince: number | null = null;
  private attempt = 0;
  private closing = false;
  private wake: (() => void) | null = null;
  /** Books that lost records: their deltas are useless (a gap) until their next snapshot. */
  private readonly gapped = new Set<string>();
  /** The newest market or venue record written: writing it again changes nothing (see shed). */
  private lastListing: EventRecord | null = null;
  /** Counters for tests and logs. */
  readonly stats = { written: 0, dropped: 0, droppedBytes: 0, refused: 0, failures: 0, outages: 0 };

  constructor(private readonly options: RecordWriterOptions) {}

  push(records: readonly EventRecord[]): void {
    if (records.length === 0) return;
    this.options.onPush?.(records);
    for (const r of records) {
      if (r.type === 'book' && this.gapped.size > 0) {
        const key = `${r.exchangeId}|${r.symbol}`;
        if (r.snapshot) this.gapped.delete(key);
        else if (this.gapped.has(key)) {
          this.stats.dropped++;
          continue;
        }
      }
      this.queue.push(r);
      this.queuedBytes += sizeOf(r);
    }
    if (this.failingSince !== null && this.queuedBytes > this.options.budgetBytes) this.shed();
    this.running ??= this.drain();
  }

  /** Records waiting to be written. */
  get queued(): number {
    return this.queue.length;
  }

  /** True from a failed write until the next one succeeds. */
  get failing(): boolean {
    return this.failingSince !== null;
  }

  /**
   * Write what is queued, giving up after `timeoutMs` if the log keeps refusing (the count of
   * records left unwritten is logged); resolves either way.
   */
  async close(timeoutMs = 5_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.running !== null && performance.now() < deadline) {
      await Promise.race([this.running, pause(Math.max(1, deadline - performance.now()))]);
    }
    this.closing = true;
    this.wake?.();
    await Promise.race([this.running, pause(timeoutMs)]);
    if (this.queue.length > 0)
      this.options.logger.error('ingestor stopped with records the log would not take', {
        records: this.queue.length,
        bytes: this.queuedBytes,
      });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.closing) {
      const batch = this.queue.slice(0, MAX_BATCH);
      this.inFlight = batch.length;
      try {
        await this.options.sink.write(batch);
        this.inFlight = 0;
        this.taken(batch, batch.length);
        this.succeeded();
      } catch (e) {
        this.inFlight = 0;
        const done = this.settle(batch, e);
        if (done) continue; // only refused records: send the rest at once
        await this.failed(e);
      }
    }
    this.running = null;
  }

  /**
   * Take out of the queue what the failed write put in the log (`appended`) or can never put
   * there (`rejected`, named and dropped). True when nothing of the failure is left to retry.
   */
  private settle(batch: readonly EventRecord[], e: unknown): boolean {
    const err = e instanceof LogError ? e : null;
    const gone = new Set<number>([...(err?.appended ?? []), ...(err?.rejected ?? [])]);
    const lost = new Set<string>();
    for (const i of err?.rejected ?? []) {
      const r = batch[i]!;
      this.stats.refused++;
      if (r.type !== 'venue') lost.add(`${r.exchangeId}|${r.symbol}`);
      this.options.logger.error('record refused by the log and dropped', {
        exchangeId: r.exchangeId.slice(0, 100),
        type: r.type,
        symbol: r.type === 'venue' ? undefined : r.symbol.slice(0, 100),
        error: err!.message.slice(0, 300),
      });
    }
    if (gone.size > 0) {
      const keep = batch.filter((_, i) => !gone.has(i));
      this.queue.splice(0, batch.length, ...keep);
      this.stats.written += err?.appended.length ?? 0;
      this.queuedBytes = this.queue.reduce((sum, r) => sum + sizeOf(r), 0);
    }
    this.lose(lost);
    return err !== null && err.code === 'too_large';
  }

  private taken(batch: readonly EventRecord[], n: number): void {
    this.queue.splice(0, n);
    for (let i = 0; i < n; i++) {
      const r = batch[i]!;
      this.queuedBytes -= sizeOf(r);
      if (r.type !== 'book') this.lastListing = r;
    }
    this.stats.written += n;
  }

  private succeeded(): void {
    this.attempt = 0;
    if (this.failingSince === null) return;
    const now = this.options.now?.() ?? Date.now();
    this.options.logger.info('log writes resumed; every book is republished as a snapshot', {
      outageMs: now - this.failingSince,
      dropped: this.stats.dropped,
      queued: this.queue.length,
    });
    this.failingSince = null;
    this.options.onRecovered();
  }

  private async failed(e: unknown): Promise<void> {
    this.stats.failures++;
    const code = e instanceof LogError ? e.code : 'unavailable';
    if (this.failingSince === null) {
      this.failingSince = this.options.now?.() ?? Date.now();
      this.stats.outages++;
      this.options.logger.error('log writes failing; holding records and retrying', {
        code,
        error: e instanceof Error ? e.message : String(e),
        retryable: retryable(e),
        budgetBytes: this.options.budgetBytes,
      });
    }
    if (this.queuedBytes > this.options.budgetBytes) this.shed();
    const { initialMs, maxMs } = this.options.backoff;
    await new Promise<void>((res) => {
      const t = setTimeout(done, Math.min(maxMs, initialMs * 2 ** Math.min(this.attempt++, 20)));
      function done(): void {
        clearTimeout(t);
        res();
      }
      this.wake = done;
    });
    this.wake = null;
  }

  /**
   * Over budget during an outage: drop the oldest queued book records until half the budget is
   * used (market and venue records stay), then the deltas still queued for the books that lost
   * records (useless after the gap) up to their next queued snapshot. The newest records stay
   * queued, so the writer keeps retrying and notices when the log is back.
   */
  private shed(): void {
    const target = this.options.budgetBytes / 2;
    const lost = new Set<string>();
    let dropped = 0;
    let bytes = 0;
    // Records being written stay: the write settles them.
    const kept: EventRecord[] = this.queue.slice(0, this.inFlight);
    let over = this.queuedBytes - target;
    for (let i = this.inFlight; i < this.queue.length; i++) {
      const r = this.queue[i]!;
      if (r.type === 'book') {
        const key = `${r.exchangeId}|${r.symbol}`;
        const healed = r.snapshot && over <= 0;
        if (over > 0 || (lost.has(key) && !healed)) {
          over -= sizeOf(r);
          dropped++;
          bytes += sizeOf(r);
          lost.add(key);
          continue;
        }
        if (healed) lost.delete(key);
      }
      kept.push(r);
    }
    if (dropped === 0) return;
    // Something must stay queued, or nothing would try the log and notice it is back (then
    // republish every book): the newest listing record, whose second copy changes no state.
    if (kept.length === 0 && this.lastListing !== null) {
      kept.push(this.lastListing);
      bytes -= sizeOf(this.lastListing);
    }
    this.queue = kept;
    this.queuedBytes -= bytes;
    this.stats.dropped += dropped;
    this.stats.droppedBytes += bytes;
    this.options.logger.warn('log outage outlasted the buffer budget: oldest queued book records dropped', {
      dropped,
      bytes,
      droppedTotal: this.stats.dropped,
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

function pause(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms).unref());
}
