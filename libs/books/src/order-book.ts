import type { BookRecord } from '@app/events';
import { BookSide, type BookSideView } from './book-side';

/** Read-only view of a cached book, as the solver and the API see it. */
export interface BookView {
  readonly exchangeId: string;
  readonly symbol: string;
  readonly bids: BookSideView;
  readonly asks: BookSideView;
  /** Sequence of the last applied record; -1 before the first snapshot. */
  readonly sequence: number;
  readonly receivedAt: number;
  readonly exchangeTimestamp: number | null;
  /** False before the first snapshot and after a sequence gap, until the next snapshot. */
  readonly inSync: boolean;
  /** The best bid is at or above the best ask (a corrupt feed; never routed), as of the last record applied. */
  readonly crossed: boolean;
}

/**
 * What applying one book record did. `stale`: a delta of an earlier owner of the venue than the
 * one whose snapshot opened the book's run (docs/events.md "Owner epochs"), ignored.
 */
export type ApplyOutcome = 'snapshot' | 'applied' | 'duplicate' | 'gap' | 'awaiting_snapshot' | 'stale';

/** One venue's book for one market, folded from book records (events.md; docs/semantics.md). */
export class OrderBook implements BookView {
  readonly bids = new BookSide(-1);
  readonly asks = new BookSide(1);
  sequence = -1;
  receivedAt = 0;
  exchangeTimestamp: number | null = null;
  inSync = false;
  /**
   * Kept as a field, set with each record, rather than read from both sides when asked: the solver
   * asks for every venue of every hop, and two sides' best levels are six more memory reads apart.
   */
  crossed = false;
  /** The owner epoch of the snapshot that opened the current run; null when it carried none. */
  epoch: number | null = null;

  constructor(
    readonly exchangeId: string,
    readonly symbol: string,
  ) {}

  /**
   * The single entry point of the fold: a snapshot replaces the book; a delta applies only when
   * its sequence is exactly sequence + 1; at or below is a duplicate; further ahead is a gap that
   * marks the book out of sync until the next snapshot. A delta with an owner epoch belongs to the
   * run of the snapshot with that epoch: one of an earlier epoch (a publisher that gave the venue
   * up, its last request landing late) is ignored, one of another epoch is a gap. What a book
   * becomes still depends only on its latest snapshot and the records after it, so a rebuild from
   * that snapshot folds to the same state as a fold from the log's start.
   */
  apply(record: BookRecord): ApplyOutcome {
    if (record.snapshot) {
      this.bids.replaceSorted(record.bids);
      this.asks.replaceSorted(record.asks);
      this.stamp(record);
      this.epoch = record.epoch ?? null;
      this.inSync = true;
      return 'snapshot';
    }
    const epoch = record.epoch;
    if (epoch !== undefined && epoch !== this.epoch) {
      if (this.epoch !== null && epoch < this.epoch) return 'stale';
      if (this.inSync) {
        this.inSync = false;
        return 'gap';
      }
    }
    if (!this.inSync) {
      // Never overwrite the sequence here: the next snapshot resets it anyway.
      return this.sequence < 0 ? 'awaiting_snapshot' : 'gap';
    }
    if (record.sequence <= this.sequence) return 'duplicate';
    if (record.sequence !== this.sequence + 1) {
      this.inSync = false;
      return 'gap';
    }
    // Index loops: no iterator or destructuring on the fold's hottest path.
    const bids = record.bids;
    for (let i = 0; i < bids.length; i++) this.bids.set(bids[i]![0], bids[i]![1]);
    const asks = record.asks;
    for (let i = 0; i < asks.length; i++) this.asks.set(asks[i]![0], asks[i]![1]);
    this.stamp(record);
    return 'applied';
  }

  /** Back to the state before any record: empty, sequence -1, awaiting a snapshot. */
  reset(): void {
    this.bids.replaceSorted([]);
    this.asks.replaceSorted([]);
    this.sequence = -1;
    this.receivedAt = 0;
    this.exchangeTimestamp = null;
    this.inSync = false;
    this.crossed = false;
    this.epoch = null;
  }

  private stamp(record: BookRecord): void {
    this.crossed = this.bids.count > 0 && this.asks.count > 0 && this.bids.price(0) >= this.asks.price(0);
    this.sequence = record.sequence;
    this.receivedAt = record.receivedAt;
    this.exchangeTimestamp = record.exchangeTimestamp;
  }
}
