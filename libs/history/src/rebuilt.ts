import type { BookCache, MarketsView } from '@app/books';
import type { VenuesGap } from '@app/live-feed';
import type { Repair } from './repair-lost';

export interface RebuildStats {
  /** Entries read from the books topic (all partitions). */
  readonly bookEntriesRead: number;
  /** Book records folded (entries of the needed books). */
  readonly bookRecordsFolded: number;
  readonly venueRecordsFolded: number;
  /** Books rebuilt. */
  readonly books: number;
}

/** What a rebuild gives: the books, what the solver may read of them, and what it read. */
export interface Rebuilt {
  readonly cache: BookCache;
  /**
   * The cache without the listings whose market or venue record was lost to damage below the
   * positions (`withheld`; docs/operations-log.md "A lost market or venue record"): what to solve on.
   */
  readonly view: MarketsView;
  readonly withheld: ReadonlySet<string>;
  /** The gaps in the venues topic below the positions (what made `withheld`). */
  readonly gaps: readonly VenuesGap[];
  /** With `repairLost`: the listings given the copies of their records written after the damage. */
  readonly repairs: readonly Repair[];
  readonly stats: RebuildStats;
}
