import type { BookCache } from '@app/books';
import type { EventRecord } from '@app/events';
import { partitionFor, type EventLog } from '@app/event-log';
import { decodeEntry, readRange, type VenuesGap } from '@app/live-feed';

/** One listing given back its records from the copies written after the damage. */
export interface Repair {
  /** `exchangeId|symbol`. */
  readonly listing: string;
  /** The gap that hid its records, and where the copies used were found. */
  readonly partition: number;
  readonly gap: { readonly from: number; readonly to: number };
  readonly copiesAt: readonly number[];
}

/**
 * For a replay of a quote served before damage destroyed a market or venue record it used: for
 * each listing of `listings` (`exchangeId|symbol`), the first market record of that market and the
 * first venue record of that venue written after the last gap of its venues partition (the
 * ingestor writes them again every LISTING_REPUBLISH_MS), read up to the log's end and applied to
 * `cache`. Nothing is believed without the replay's hash comparison. A listing with no market
 * record after the gap is left as it was.
 */
export async function repairLost(
  log: EventLog,
  venuesPartitions: number,
  gaps: readonly VenuesGap[],
  listings: Iterable<string>,
  cache: BookCache,
): Promise<Repair[]> {
  const ends = await log.highWatermarks('venues');
  const byPartition = new Map<number, string[]>();
  for (const listing of listings) {
    const p = partitionFor(listing.slice(0, listing.indexOf('|')), venuesPartitions);
    const list = byPartition.get(p) ?? [];
    list.push(listing);
    byPartition.set(p, list);
  }
  const repairs: Repair[] = [];
  for (const [p, wanted] of byPartition) {
    let gap: VenuesGap | null = null;
    for (const g of gaps) if (g.partition === p && (gap === null || g.from > gap.from)) gap = g;
    if (gap === null) continue;
    const found = new Map<string, { market: EventRecord | null; venue: EventRecord | null; at: number[] }>();
    for (const l of wanted) found.set(l, { market: null, venue: null, at: [] });
    for await (const entries of readRange(log, 'venues', p, gap.to, ends[p] ?? 0))
      for (const e of entries) {
        const d = decodeEntry(e);
        if (!d.ok || d.record.type === 'book') continue;
        const r = d.record;
        for (const [l, f] of found) {
          if (!l.startsWith(`${r.exchangeId}|`)) continue;
          if (r.type === 'market' && f.market === null && l === `${r.exchangeId}|${r.symbol}`) {
            f.market = r;
            f.at.push(e.offset);
          } else if (r.type === 'venue' && f.venue === null) {
            f.venue = r;
            f.at.push(e.offset);
          }
        }
      }
    for (const [listing, f] of found) {
      if (f.market === null) continue;
      cache.apply(f.market);
      if (f.venue !== null) cache.apply(f.venue);
      repairs.push({ listing, partition: p, gap: { from: gap.from, to: gap.to }, copiesAt: f.at });
    }
  }
  return repairs;
}
