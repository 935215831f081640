import type { BookRecord, Level } from '@app/events';
import {
  bookFault,
  LevelBuffer,
  publishedCount,
  topLevels,
  type BookFault,
  type CcxtSide,
  validLevels,
} from './book-diff';
import { syncSide, type PriceRange, type TouchedBand } from './sync-side';

/** What publishing one observed book state produced. */
export type PublishOutcome =
  | { readonly kind: 'record'; readonly record: BookRecord }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'withheld'; readonly fault: BookFault };

/** The last published levels of one side, and which ccxt side (and trim depth) they were read from. */
class PublishedSide extends LevelBuffer {
  source: CcxtSide | null = null;
  sourceDepth: number | undefined = undefined;

  /** The band that bounds every change since the last publish, or null when the whole window must be diffed. */
  bandFor(side: CcxtSide, band: TouchedBand | undefined): PriceRange | null {
    if (band === undefined || band.whole || this.source !== side || this.sourceDepth !== side.depth)
      return null;
    return band;
  }

  synced(side: CcxtSide, band: TouchedBand | undefined): void {
    this.source = side;
    this.sourceDepth = side.depth;
    band?.clear();
  }
}

/**
 * Turns successive states of one venue book (ccxt sides, best first) into book records over the
 * top `depth` levels: a snapshot first, after every `resync()`, after every `snapshotEvery`
 * deltas and once `snapshotEveryMs` has passed since the last one (so a rebuild or replay never
 * reads far back: docs/operations-log.md), otherwise the diff against what was last published.
 * Sequence numbers are contiguous per book across snapshots and deltas.
 */
export class BookPublisher {
  private sequence = 0;
  private readonly bids: PublishedSide;
  private readonly asks: PublishedSide;
  private deltasSinceSnapshot = 0;
  private lastSnapshotAt = 0;
  private needSnapshot = true;

  constructor(
    readonly exchangeId: string,
    readonly symbol: string,
    private readonly snapshotEvery: number,
    private readonly depth = 500,
    private readonly snapshotEveryMs = 30_000,
  ) {
    this.bids = new PublishedSide(Math.min(depth, 1024));
    this.asks = new PublishedSide(Math.min(depth, 1024));
  }

  /** The next publish is a snapshot (after a re-subscription or a withheld bad state). */
  resync(): void {
    this.needSnapshot = true;
  }

  /** Last published sequence (0 before the first record). */
  get lastSequence(): number {
    return this.sequence;
  }

  /**
   * Publish the book's current state; reads the sides synchronously (they are ccxt's live arrays).
   * `bidBand` / `askBand`, when given, bound every change made to that side since the last
   * publish (side-tracker.ts), so a delta reads only the changed band instead of the whole window.
   */
  publish(
    bids: CcxtSide,
    asks: CcxtSide,
    exchangeTimestamp: number | null,
    receivedAt: number,
    bidBand?: TouchedBand,
    askBand?: TouchedBand,
  ): PublishOutcome {
    const nb = publishedCount(bids, this.depth);
    const na = publishedCount(asks, this.depth);
    const fault = bookFault(bids, nb, asks, na);
    if (fault !== null) {
      // The reader keeps the last good state and sees it age; the caller re-subscribes.
      this.needSnapshot = true;
      return { kind: 'withheld', fault };
    }
    const snapshot =
      this.needSnapshot ||
      this.deltasSinceSnapshot >= this.snapshotEvery ||
      receivedAt - this.lastSnapshotAt >= this.snapshotEveryMs;
    let outBids: Level[];
    let outAsks: Level[];
    if (snapshot && (!validLevels(bids, nb) || !validLevels(asks, na))) {
      this.needSnapshot = true;
      return { kind: 'withheld', fault: 'invalid_level' };
    }
    if (snapshot) {
      outBids = topLevels(bids, nb);
      outAsks = topLevels(asks, na);
      this.bids.fill(bids, nb);
      this.asks.fill(asks, na);
      this.deltasSinceSnapshot = 0;
      this.lastSnapshotAt = receivedAt;
      this.needSnapshot = false;
    } else {
      outBids = syncSide(this.bids, bids, nb, -1, this.bids.bandFor(bids, bidBand));
      outAsks = syncSide(this.asks, asks, na, 1, this.asks.bandFor(asks, askBand));
    }
    this.bids.synced(bids, bidBand);
    this.asks.synced(asks, askBand);
    if (!snapshot) {
      if (outBids.length === 0 && outAsks.length === 0) return { kind: 'unchanged' };
      this.deltasSinceSnapshot++;
    }
    this.sequence++;
    const record: BookRecord = {
      v: 1,
      type: 'book',
      exchangeId: this.exchangeId,
      symbol: this.symbol,
      snapshot,
      bids: outBids,
      asks: outAsks,
      sequence: this.sequence,
      exchangeTimestamp,
      receivedAt,
    };
    return { kind: 'record', record };
  }
}
