import { Backoff, type BackoffPolicy, type Random, asError } from '@app/retry';
import { LogError } from './log-error';

export interface BatchAppenderOptions<T> {
  /**
   * Append one batch. A failure that is a LogError names what the append put in the log anyway
   * (`appended`) and what the log can never take (`rejected`): neither is appended again.
   */
  readonly write: (batch: readonly T[]) => Promise<void>;
  /** Estimated bytes an item holds while queued (what the owner bounds). */
  readonly sizeOf: (item: T) => number;
  /** Items per append at most. */
  readonly maxBatch: number;
  /** Items of one lane only share an append, and bytes are counted per lane (default: one lane). */
  readonly laneOf?: (item: T) => string;
  /** Pauses between appends while they fail: full jitter under a doubling ceiling. */
  readonly backoff: BackoffPolicy;
  readonly random?: Random;
  /** Items now in the log. */
  readonly onWritten?: (items: readonly T[]) => void;
  /** Items the log refuses for good (too large): dropped. */
  readonly onRefused?: (items: readonly T[], error: LogError) => void;
  /** An item of a failed append, neither in the log nor refused: true drops it (the owner told its caller). */
  readonly abandon?: (item: T, error: Error) => boolean;
  /** An append failed (`first`: the first of an outage); the appender pauses, then appends again. */
  readonly onFailure?: (error: Error, first: boolean) => void;
  /** An append succeeded after failures. */
  readonly onRecovered?: () => void;
}

const ONE_LANE = '';

/**
 * A queue appended to the log in batches, one append at a time, by the ingestor's RecordWriter and
 * the API's QuoteJournal. Items queued while an append is in flight go out in the next; a failed
 * append keeps its items queued (less what it put in or the log refuses) and the queue is appended
 * again after a pause while it fails, the items queued meanwhile included: while failing only that
 * retry appends. Bytes are counted per lane for the owner's bound (what to shed or refuse is the
 * owner's policy).
 */
export class BatchAppender<T> {
  private queue: T[] = [];
  private readonly bytesOf = new Map<string, number>();
  private total = 0;
  private writing = 0;
  /** True from a run's start to its end, set and cleared in the same turns (see kick). */
  private active = false;
  private running: Promise<void> = Promise.resolve();
  private failingNow = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private waiters: { done: () => void; fail: (e: Error) => void }[] = [];
  private readonly backoff: Backoff;
  /** Counters: items appended, items refused, failed appends, outages (runs of failed appends). */
  readonly counts = { written: 0, refused: 0, failures: 0, outages: 0 };

  constructor(private readonly options: BatchAppenderOptions<T>) {
    this.backoff = new Backoff(options.backoff, options.random);
  }

  /** Queue items (appended by the next kick, flush or retry). */
  push(items: readonly T[]): void {
    for (const item of items) {
      this.queue.push(item);
      this.count(item, 1);
    }
  }

  /** The queue, oldest first (read-only: its head is being appended while `inFlight` > 0). */
  get items(): readonly T[] {
    return this.queue;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Items at the head of the queue handed to the log and not settled yet. */
  get inFlight(): number {
    return this.writing;
  }

  /** Estimated bytes queued in `lane`, or in all lanes. */
  bytes(lane?: string): number {
    return lane === undefined ? this.total : (this.bytesOf.get(lane) ?? 0);
  }

  /** True from a failed append until the next one succeeds. */
  get failing(): boolean {
    return this.failingNow;
  }

  /** `item` (queued) now holds a different estimate than `before`. */
  resized(item: T, before: number): void {
    const delta = this.options.sizeOf(item) - before;
    const lane = this.laneOf(item);
    this.bytesOf.set(lane, (this.bytesOf.get(lane) ?? 0) + delta);
    this.total += delta;
  }

  /** Drop the queued items `keep` refuses, oldest first; items being appended always stay. */
  retain(keep: (item: T) => boolean): void {
    const kept = this.queue.slice(0, this.writing);
    for (let i = this.writing; i < this.queue.length; i++) {
      const item = this.queue[i]!;
      if (keep(item)) kept.push(item);
      else this.count(item, -1);
    }
    this.queue = kept;
  }

  /** Start appending unless an append (or the pause after a failed one) is under way. */
  kick(): void {
    if (this.active || this.stopped || this.queue.length === 0) return;
    this.running = this.run();
  }

  /** Append now, cutting short the pause after a failed append. */
  retryNow(): void {
    this.wake?.();
    this.kick();
  }

  /**
   * Append everything queued, now (a pause after a failure is cut short); resolves once the queue
   * is empty, rejects at the next failed append.
   */
  flush(): Promise<void> {
    // Items stay queued until settled: an empty queue has nothing in flight either.
    if (this.queue.length === 0) return Promise.resolve();
    if (this.stopped) return Promise.reject(new Error('the appender is stopped'));
    const settled = new Promise<void>((done, fail) => this.waiters.push({ done, fail }));
    this.retryNow();
    return settled;
  }

  /**
   * Append what is queued for up to `timeoutMs` while the log keeps refusing, then stop (no more
   * retries; an append in flight is waited for up to `timeoutMs` more). Resolves either way.
   */
  async close(timeoutMs: number): Promise<void> {
    this.kick();
    const deadline = performance.now() + timeoutMs;
    while (this.active && performance.now() < deadline)
      await Promise.race([this.running, pause(Math.max(1, deadline - performance.now()))]);
    this.stop();
    if (this.active) await Promise.race([this.running, pause(timeoutMs)]);
  }

  /** No more appends after the one in flight; what is queued stays queued. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
    for (const w of this.waiters.splice(0)) w.fail(new Error('the appender is stopped'));
  }

  /**
   * Append until the queue is empty (or stop). `active` is cleared in the turn the loop ends, not
   * a microtask later: items pushed after it start a new run instead of waiting for none.
   */
  private async run(): Promise<void> {
    this.active = true;
    try {
      while (this.queue.length > 0 && !this.stopped) {
        const batch = this.head();
        this.writing = batch.length;
        try {
          await this.options.write(batch);
        } catch (e) {
          this.writing = 0;
          // Only items refused for their size: nothing else is wrong, the rest goes at once.
          if (this.settle(batch, e)) continue;
          await this.failed(asError(e));
          continue;
        }
        this.writing = 0;
        this.taken(batch);
        this.backoff.reset();
        if (this.failingNow) {
          this.failingNow = false;
          this.options.onRecovered?.();
        }
      }
    } finally {
      this.active = false;
    }
    if (this.queue.length === 0) for (const w of this.waiters.splice(0)) w.done();
  }

  /** The oldest items of the first item's lane, up to maxBatch. */
  private head(): T[] {
    const lane = this.laneOf(this.queue[0]!);
    let n = 1;
    while (n < this.options.maxBatch && n < this.queue.length && this.laneOf(this.queue[n]!) === lane) n++;
    return this.queue.slice(0, n);
  }

  private taken(batch: readonly T[]): void {
    this.queue.splice(0, batch.length);
    for (const item of batch) this.count(item, -1);
    this.counts.written += batch.length;
    this.options.onWritten?.(batch);
  }

  /**
   * Take out of the queue what the failed append put in the log, what the log refuses and what
   * the owner abandons. True when the failure was only refused items (nothing left to wait for).
   */
  private settle(batch: readonly T[], e: unknown): boolean {
    const err = e instanceof LogError ? e : null;
    const error = asError(e);
    const appended = new Set(err?.appended ?? []);
    const refused = new Set(err?.rejected ?? []);
    const gone = new Set<number>([...appended, ...refused]);
    for (let i = 0; i < batch.length; i++)
      if (!gone.has(i) && this.options.abandon?.(batch[i]!, error) === true) gone.add(i);
    if (gone.size > 0) {
      this.queue.splice(0, batch.length, ...batch.filter((_, i) => !gone.has(i)));
      for (const i of gone) this.count(batch[i]!, -1);
    }
    const written = batch.filter((_, i) => appended.has(i));
    this.counts.written += written.length;
    if (written.length > 0) this.options.onWritten?.(written);
    if (refused.size > 0) {
      this.counts.refused += refused.size;
      this.options.onRefused?.(
        batch.filter((_, i) => refused.has(i)),
        err!,
      );
    }
    return err !== null && err.code === 'too_large';
  }

  private async failed(error: Error): Promise<void> {
    this.counts.failures++;
    const first = !this.failingNow;
    if (first) this.counts.outages++;
    this.failingNow = true;
    this.options.onFailure?.(error, first);
    for (const w of this.waiters.splice(0)) w.fail(error);
    if (this.stopped) return;
    const ms = this.backoff.next();
    await new Promise<void>((res) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        res();
      }
      this.wake = done;
    });
    this.wake = null;
  }

  private laneOf(item: T): string {
    return this.options.laneOf?.(item) ?? ONE_LANE;
  }

  private count(item: T, sign: 1 | -1): void {
    const bytes = sign * this.options.sizeOf(item);
    const lane = this.laneOf(item);
    this.bytesOf.set(lane, (this.bytesOf.get(lane) ?? 0) + bytes);
    this.total += bytes;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms).unref());
}
