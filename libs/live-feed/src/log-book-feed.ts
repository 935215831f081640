import { BookCache, withoutListings, type MarketsView } from '@app/books';
import { byCodeUnit, RECORD_TOPICS, type EventRecord, type TopicName } from '@app/events';
import {
  partitionFor,
  type EventLog,
  type LogEntry,
  type LogPosition,
  type PositionVector,
} from '@app/event-log';
import { Backoff, sleep, errorMessage } from '@app/retry';
import { BookFeed, type FeedHealth, type FeedLogger } from './book-feed';
import { FeedProgress } from './feed-progress';
import { foldEntries, type SkippedEntry } from './fold';
import { lostListings, VenuesTracker } from './lost-listings';

export type { FeedLogger };

export interface BookFeedOptions {
  readonly log: EventLog;
  readonly logger: FeedLogger;
  /** Start from the latest snapshots (default) or fold every topic from its beginning. */
  readonly fromSnapshots?: boolean;
  /**
   * Pause before re-following after the log failed: full jitter under a ceiling doubling from
   * `retryMs` (default 500) to `maxRetryMs` (default 5000), so replicas do not return in step.
   */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
}

/** Build the API's book feed over any event log (the composition root's factory). */
export function createBookFeed(options: BookFeedOptions): LogBookFeed {
  return new LogBookFeed(options);
}

const FED: readonly TopicName[] = RECORD_TOPICS;

/**
 * Folds every partition of `books` and `venues` into a BookCache: explicit positions, no
 * consumer group, so every API replica sees every book. Applies each offset at most once and
 * resumes from its own positions after the log fails, so a broker restart loses and repeats
 * nothing.
 */
export class LogBookFeed extends BookFeed {
  readonly cache = new BookCache();
  private readonly pos: Partial<Record<TopicName, number[]>> = {};
  private target: Partial<Record<TopicName, number[]>> = {};
  private ready = false;
  private readonly listeners = new Set<(symbols: ReadonlySet<string>) => void>();
  /** exchangeId -> symbols seen for it, so a venue record can notify its symbols. */
  private readonly venueSymbols = new Map<string, Set<string>>();
  private abort: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private onReady: (() => void) | null = null;
  private progress: FeedProgress | null = null;
  /** Books not in sync when the feed caught up: nothing in the log could rebuild them then. */
  private notRebuilt: string[] = [];
  /** Counters for health and tests: entries applied and malformed entries skipped. */
  readonly stats = { applied: 0, skipped: 0, restarts: 0 };
  /** Where each market and venue record lies, and the venues entries never received. */
  private readonly venues = new VenuesTracker();
  private withheld: ReadonlySet<string> = new Set();
  private view: MarketsView = this.cache;
  /** The withheld listings must be worked out again (something changed since). */
  private stale = false;

  constructor(private readonly options: BookFeedOptions) {
    super();
  }

  async start(): Promise<void> {
    if (this.loop !== null) throw new Error('BookFeed already started');
    const { log } = this.options;
    const fromSnapshots = this.options.fromSnapshots !== false;
    const progress = (this.progress = new FeedProgress(this.options.logger));
    for (const topic of FED) {
      const hwm = await log.highWatermarks(topic);
      this.target[topic] = hwm;
      this.pos[topic] =
        topic === 'books' && fromSnapshots ? await log.rebuildStarts(topic, hwm) : hwm.map(() => 0);
      progress.plan(topic, this.pos[topic], hwm, fromSnapshots);
    }
    const readyNow = new Promise<void>((res) => (this.onReady = res));
    const appliedBefore = this.stats.applied + this.stats.skipped;
    progress.watch(
      () => this.stats.applied + this.stats.skipped - appliedBefore,
      () => this.positions(),
    );
    this.checkReady();
    this.abort = new AbortController();
    this.loop = this.run(this.abort.signal);
    await Promise.race([readyNow, this.loop]);
  }

  isReady(): boolean {
    return this.ready;
  }

  health(): FeedHealth {
    const log = this.options.log.health();
    if (!this.ready) return { status: 'starting', log, booksNotRebuilt: [], listingsWithheld: [] };
    // A book counts until a snapshot brings it back in sync.
    this.notRebuilt = this.notRebuilt.filter((k) => {
      const bar = k.indexOf('|');
      return this.cache.book(k.slice(0, bar), k.slice(bar + 1))?.inSync !== true;
    });
    this.routable();
    const listingsWithheld = [...this.withheld].sort(byCodeUnit);
    const degraded =
      log.damagedEntries > 0 ||
      log.problems.length > 0 ||
      this.notRebuilt.length > 0 ||
      listingsWithheld.length > 0;
    return {
      status: degraded ? 'degraded' : 'ok',
      log,
      booksNotRebuilt: [...this.notRebuilt],
      listingsWithheld,
    };
  }

  routable(): MarketsView {
    if (this.venues.gaps.length === 0) return this.cache;
    if (this.stale) {
      this.stale = false;
      this.withheld = lostListings(this.cache, this.pos.venues?.length ?? 0, this.venues.gaps, this.venues);
      this.view = withoutListings(this.cache, this.withheld);
    }
    return this.view;
  }

  onChange(listener: (symbols: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  positions(): PositionVector {
    const out: PositionVector = {};
    for (const topic of FED) if (this.pos[topic] !== undefined) out[topic] = [...this.pos[topic]];
    return out;
  }

  async stop(): Promise<void> {
    this.progress?.stop();
    this.abort?.abort();
    await this.loop?.catch(() => undefined);
    this.loop = null;
  }

  /** Fold one batch: each offset once, malformed entries logged with their position and skipped. */
  apply(batch: readonly LogEntry[]): void {
    // Entries below the feed's position were applied already (a resumed follow may repeat them).
    let fresh: readonly LogEntry[] = batch;
    for (const entry of batch) {
      const next = this.pos[entry.topic]?.[entry.partition];
      if (next === undefined || entry.offset < next) {
        fresh = batch.filter((e) => {
          const n = this.pos[e.topic]?.[e.partition];
          return n !== undefined && e.offset >= n;
        });
        break;
      }
    }
    const touched = new Set<string>();
    for (const entry of fresh) this.pos[entry.topic]![entry.partition] = entry.offset + 1;
    const onSkipped = (s: SkippedEntry): void => {
      if (s.topic === 'venues') this.venuesEntry(s.partition, s.offset, null, touched);
      this.onSkipped(s);
    };
    this.stats.applied += foldEntries(fresh, this.cache, onSkipped, (record, entry) => {
      if (entry.topic === 'venues') this.venuesEntry(entry.partition, entry.offset, record, touched);
      if (record.type === 'venue') {
        for (const s of this.venueSymbols.get(record.exchangeId) ?? []) touched.add(s);
        return;
      }
      touched.add(record.symbol);
      let set = this.venueSymbols.get(record.exchangeId);
      if (set === undefined) this.venueSymbols.set(record.exchangeId, (set = new Set()));
      set.add(record.symbol);
    });
    // Any batch may list a market anew (a book): once a listing record was lost, look again.
    if (this.venues.gaps.length > 0) this.stale = true;
    if (!this.ready) this.progress?.applied(this.stats.applied + this.stats.skipped);
    this.checkReady();
    if (touched.size === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(touched);
      } catch (e) {
        this.options.logger.error(`onChange listener failed: ${errorMessage(e)}`);
      }
    }
  }

  /**
   * A venues entry read (null: not a valid record). Offsets it jumps over were lost to damage: the
   * symbols of the partition's venues are re-solved, their listings may be withheld now.
   */
  private venuesEntry(
    partition: number,
    offset: number,
    record: EventRecord | null,
    touched: Set<string>,
  ): void {
    const gap = this.venues.entry(partition, offset, record);
    if (gap === null) return;
    const n = this.pos.venues?.length ?? 0;
    for (const [exchangeId, symbols] of this.venueSymbols)
      if (partitionFor(exchangeId, n) === partition) for (const s of symbols) touched.add(s);
    this.options.logger.warn(
      `venues/${partition} offsets ${gap.from}..${gap.to - 1} were not readable: markets of venues in that partition whose market or venue record may be among them are kept out of routing until it is written again`,
    );
  }

  private readonly onSkipped = (s: SkippedEntry): void => {
    this.stats.skipped++;
    this.options.logger.warn(
      `skipped malformed record at ${s.topic}/${s.partition}@${s.offset}: ${s.problem}`,
    );
  };

  private async run(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff({
      initialMs: this.options.retryMs ?? 500,
      maxMs: this.options.maxRetryMs ?? 5000,
    });
    while (!signal.aborted) {
      try {
        const from: LogPosition[] = FED.flatMap((topic) =>
          this.pos[topic]!.map((offset, partition) => ({ topic, partition, offset })),
        );
        for await (const batch of this.options.log.follow(from, { signal })) {
          this.apply(batch);
          backoff.reset();
        }
      } catch (e) {
        if (signal.aborted) return;
        this.stats.restarts++;
        const wait = backoff.next();
        this.options.logger.warn(
          `event log read failed (${errorMessage(e)}); resuming from positions in ${wait} ms`,
        );
        await sleep(wait, signal);
      }
    }
  }

  private checkReady(): void {
    if (this.ready) return;
    for (const topic of FED) {
      const want = this.target[topic] ?? [];
      const have = this.pos[topic] ?? [];
      if (want.some((w, p) => (have[p] ?? 0) < w)) return;
    }
    this.ready = true;
    const ms = this.progress?.stop() ?? 0;
    const books = this.cache.allBooks();
    this.notRebuilt = books.filter((b) => !b.inSync).map((b) => `${b.exchangeId}|${b.symbol}`);
    this.options.logger.log(
      `book feed caught up in ${ms} ms: ${books.length} books, positions ${JSON.stringify(this.positions())}`,
    );
    if (this.notRebuilt.length > 0)
      this.options.logger.warn(
        `${this.notRebuilt.length} books could not be rebuilt from the log (no snapshot to start from, or a gap): ${this.notRebuilt.slice(0, 20).join(', ')}${this.notRebuilt.length > 20 ? ', ...' : ''}`,
      );
    const damage = this.options.log.health();
    if (damage.damagedEntries > 0 || damage.problems.length > 0)
      this.options.logger.warn(
        `the event log is damaged: ${damage.damagedEntries} entries skipped, ${damage.problems.length} problems (see the lines above)`,
      );
    this.onReady?.();
  }
}
