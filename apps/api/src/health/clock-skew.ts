import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BookFeed } from '@app/live-feed';
import { CLOCK_SKEW_TOLERANCE_MS } from '@app/routing';
import { Clock } from '../clock';

/** How often folded changes are sampled (ms): the skew needs no more. */
const SAMPLE_EVERY_MS = 200;
/** The skew is the largest sample of this window (ms); none in it: unknown. */
const WINDOW_MS = 10_000;
const BUCKET_MS = 1_000;

/**
 * The skew between the ingestor's clock and this API's, measured from the records as they are
 * folded: receivedAt (the ingestor's clock at arrival) less the service clock when the record is
 * applied, the largest over the last ten seconds. Positive: the ingestor's clock is ahead (books
 * stamped in the future; beyond CLOCK_SKEW_TOLERANCE_MS they do not route). Negative: the API's
 * clock is ahead, or records reach it late (fold lag); books then look older than they are. The
 * transit from ingestor to fold (milliseconds) is inside the figure either way.
 */
@Injectable()
export class ClockSkew implements OnModuleInit, OnModuleDestroy {
  private unsubscribe: (() => void) | null = null;
  private lastSampleAt = -Infinity;
  /** Per bucket of BUCKET_MS (performance.now() / BUCKET_MS): the largest sample in it. */
  private readonly buckets = new Map<number, number>();

  constructor(
    @Inject(BookFeed) private readonly feed: BookFeed,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.feed.onChange((symbols) => this.sample(symbols));
    // What the log held at start counts as the first sample.
    this.sample(new Set(this.feed.cache.symbols()));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** The skew in ms (ingestor minus API), or null when no record was folded in the last ten seconds. */
  ms(): number | null {
    const oldest = Math.floor((performance.now() - WINDOW_MS) / BUCKET_MS);
    let skew: number | null = null;
    for (const [bucket, max] of this.buckets) {
      if (bucket < oldest) this.buckets.delete(bucket);
      else skew = skew === null ? max : Math.max(skew, max);
    }
    return skew;
  }

  /** Whether the ingestor's clock is ahead of this API's beyond the tolerance. */
  exceeded(skew = this.ms()): boolean {
    return skew !== null && skew > CLOCK_SKEW_TOLERANCE_MS;
  }

  private sample(symbols: ReadonlySet<string>): void {
    const t = performance.now();
    if (t - this.lastSampleAt < SAMPLE_EVERY_MS) return;
    this.lastSampleAt = t;
    // The book just changed is the newest of its symbol: the largest receivedAt among its venues.
    let newest = -Infinity;
    for (const symbol of symbols)
      for (const listing of this.feed.cache.listings(symbol))
        if (listing.book !== undefined && listing.book.sequence >= 0)
          newest = Math.max(newest, listing.book.receivedAt);
    if (newest === -Infinity) return;
    const sample = newest - this.clock.now();
    const bucket = Math.floor(t / BUCKET_MS);
    this.buckets.set(bucket, Math.max(this.buckets.get(bucket) ?? -Infinity, sample));
  }
}
