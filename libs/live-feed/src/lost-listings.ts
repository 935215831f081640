import type { MarketsView } from '@app/books';
import { byCodeUnit } from '@app/events';
import { partitionFor } from '@app/event-log';

/** Entries of a venues partition a reader never received (lost to damage in the log). */
export interface VenuesGap {
  readonly partition: number;
  /** The missing offsets: [from, to). */
  readonly from: number;
  readonly to: number;
  /** receivedAt of the last entry read before the gap (-Infinity: none). */
  readonly after: number;
}

/** Where a market or venue record a reader folded lies: its offset and its receivedAt. */
export interface RecordAt {
  readonly offset: number;
  readonly at: number;
}

/** The market and venue records a reader folded, by listing. */
export interface ListingRecords {
  market(exchangeId: string, symbol: string): RecordAt | undefined;
  venue(exchangeId: string): RecordAt | undefined;
}

/**
 * The listings (`exchangeId|symbol`) of `view` whose market or venue record may have been lost
 * (docs/operations-log.md "A lost market or venue record"): a gap in the venue's partition of the
 * venues topic, below what was read, that could hide a newer version of either record. A reader
 * that folds in log order (`at` Infinity: the live cache, a replay without asOf) counts a gap after
 * the record it folded. The versioned read at instant `at` counts a gap whose lost entry, taken as
 * stamped when the entry before it was (`after`), is at or before the instant and would beat the
 * record it read (a greater receivedAt, or the same and later in the log). A listing with no such
 * record at all counts every gap of its partition up to the instant.
 */
export function lostListings(
  view: Pick<MarketsView, 'listings'> & { symbols(): readonly string[] },
  venuesPartitions: number,
  gaps: readonly VenuesGap[],
  records: ListingRecords,
  at = Infinity,
): Set<string> {
  const out = new Set<string>();
  if (gaps.length === 0) return out;
  const byPartition = new Map<number, VenuesGap[]>();
  for (const g of gaps) {
    if (Number.isFinite(at) && g.after > at) continue;
    const list = byPartition.get(g.partition) ?? [];
    list.push(g);
    byPartition.set(g.partition, list);
  }
  const hides = (g: VenuesGap, r: RecordAt | undefined): boolean =>
    r === undefined ||
    (Number.isFinite(at) ? g.after > r.at || (g.after === r.at && g.from > r.offset) : g.from > r.offset);
  for (const symbol of view.symbols())
    for (const l of view.listings(symbol)) {
      const partition = byPartition.get(partitionFor(l.exchangeId, venuesPartitions));
      if (partition === undefined) continue;
      const market = records.market(l.exchangeId, symbol);
      const venue = records.venue(l.exchangeId);
      if (partition.some((g) => hides(g, market) || hides(g, venue))) out.add(`${l.exchangeId}|${symbol}`);
    }
  return out;
}

/**
 * What a reader of the venues topic tracks to tell a lost listing record: the gaps in each
 * partition's offsets and, per market and venue, the record it folded last (log order).
 */
export class VenuesTracker implements ListingRecords {
  readonly gaps: VenuesGap[] = [];
  private readonly markets = new Map<string, RecordAt>();
  private readonly venues = new Map<string, RecordAt>();
  /** Per partition: the next offset expected and the receivedAt of the last entry read. */
  private readonly next = new Map<number, { offset: number; at: number }>();

  /** An entry read at `offset` (a record, or null when it is not one; it still fills its place). */
  entry(
    partition: number,
    offset: number,
    record: { type: string; exchangeId: string; symbol?: string; receivedAt: number } | null,
  ): VenuesGap | null {
    const last = this.next.get(partition) ?? { offset: 0, at: -Infinity };
    let gap: VenuesGap | null = null;
    if (offset > last.offset) {
      gap = { partition, from: last.offset, to: offset, after: last.at };
      this.gaps.push(gap);
    }
    this.next.set(partition, { offset: offset + 1, at: record?.receivedAt ?? last.at });
    if (record?.type === 'market')
      this.markets.set(`${record.exchangeId}|${record.symbol}`, { offset, at: record.receivedAt });
    else if (record?.type === 'venue') this.venues.set(record.exchangeId, { offset, at: record.receivedAt });
    return gap;
  }

  /** Entries below `upTo` never read count as lost too (the tail of what a position covers). */
  end(partition: number, upTo: number): void {
    const last = this.next.get(partition) ?? { offset: 0, at: -Infinity };
    if (upTo > last.offset) this.gaps.push({ partition, from: last.offset, to: upTo, after: last.at });
  }

  market(exchangeId: string, symbol: string): RecordAt | undefined {
    return this.markets.get(`${exchangeId}|${symbol}`);
  }

  /**
   * `exchangeId|symbol` for every venue read in a partition with a gap and every one of `symbols`
   * whose market or venue record that gap may hide: the listings a replay may try to repair.
   */
  candidates(symbols: Iterable<string>, venuesPartitions: number): string[] {
    const gapped = new Set(this.gaps.map((g) => g.partition));
    const ids = new Set<string>(this.venues.keys());
    for (const key of this.markets.keys()) ids.add(key.slice(0, key.indexOf('|')));
    const out: string[] = [];
    for (const exchangeId of [...ids].sort(byCodeUnit)) {
      const p = partitionFor(exchangeId, venuesPartitions);
      if (!gapped.has(p)) continue;
      const venue = this.venue(exchangeId);
      for (const symbol of symbols) {
        const market = this.market(exchangeId, symbol);
        if (
          this.gaps.some(
            (g) =>
              g.partition === p &&
              (market === undefined ||
                g.from > market.offset ||
                venue === undefined ||
                g.from > venue.offset),
          )
        )
          out.push(`${exchangeId}|${symbol}`);
      }
    }
    return out;
  }

  venue(exchangeId: string): RecordAt | undefined {
    return this.venues.get(exchangeId);
  }
}
