import { BookCache, withoutListings } from '@app/books';
import { byCodeUnit } from '@app/events';
import type { JournalPositions } from '@app/journal';
import { TurnBudget, type EventLog } from '@app/event-log';
import { lostListings, type RecordAt, type VenuesGap } from '@app/live-feed';
import type { Rebuilt } from './rebuilt';
import { repairLost } from './repair-lost';
import { reconnectCountAt, type KeyTimes, type TimeIndex } from './time-index';
import { versionedScan } from './versioned-scan';

/** The symbol of a fold key (`exchangeId|symbol`, `market|exchangeId|symbol`), or null for a venue's. */
function symbolOf(key: string): string | null {
  if (key.startsWith('venue|')) return null;
  const from = key.startsWith('market|') ? key.indexOf('|', 7) : key.indexOf('|');
  return key.slice(from + 1);
}

/**
 * The versioned read at `asOf` below `positions`: every venue, and every market and book of
 * `symbols`, each as it was after its greatest-stamped record at or before asOf.
 */
export async function rebuildAt(
  log: EventLog,
  positions: JournalPositions,
  symbols: ReadonlySet<string>,
  asOf: number,
  index: TimeIndex,
  repair: boolean,
): Promise<Rebuilt> {
  const cache = new BookCache();
  const gaps: VenuesGap[] = [];
  const versions = new Map<string, RecordAt>();
  const turn = new TurnBudget();
  const counts = { books: 0, venues: 0 };
  let read = 0;
  let books = 0;
  for (const topic of ['venues', 'books'] as const) {
    const ends = positions[topic];
    const n = await log.partitions(topic);
    if (ends.length !== n)
      throw new Error(`the record's ${topic} position has ${ends.length} partitions, the log has ${n}`);
    for (let p = 0; p < n; p++) {
      const upTo = ends[p]!;
      if (upTo === 0) continue;
      const times = await index.partition(topic, p, upTo);
      const keys = new Map<string, KeyTimes>();
      for (const [key, kt] of times.keys) {
        const symbol = symbolOf(key);
        if (symbol === null || symbols.has(symbol)) keys.set(key, kt);
      }
      const got = await versionedScan(log, topic, p, upTo, asOf, times, keys, turn);
      if (topic === 'venues') {
        gaps.push(...times.venuesGaps(p, upTo));
        for (const [key, v] of got.targets) versions.set(key, v);
      }
      if (topic === 'books') {
        read += got.entriesRead;
        books += got.records.size;
      }
      // Keys in sorted order: the cache's contents do not depend on it, its build order then neither.
      for (const key of [...got.records.keys()].sort(byCodeUnit))
        for (const r of got.records.get(key)!) {
          if (turn.due()) await turn.next();
          // The state after a venue record keeps the last reconnectCount at or before it.
          if (r.type === 'venue' && r.reconnectCount === undefined)
            cache.apply({
              ...r,
              reconnectCount: reconnectCountAt(keys.get(key)!, got.targets.get(key)!.offset),
            });
          else cache.apply(r);
          counts[topic]++;
        }
    }
  }
  // Which market or venue record of each listing the read gave: a gap that may hide a newer one
  // keeps the listing out of routing.
  const withheld = lostListings(
    cache,
    positions.venues.length,
    gaps,
    {
      market: (exchangeId, symbol) => versions.get(`market|${exchangeId}|${symbol}`),
      venue: (exchangeId) => versions.get(`venue|${exchangeId}`),
    },
    asOf,
  );
  const repairs = repair ? await repairLost(log, positions.venues.length, gaps, withheld, cache) : [];
  for (const r of repairs) withheld.delete(r.listing);
  return {
    cache,
    view: withoutListings(cache, withheld),
    withheld,
    gaps,
    repairs,
    stats: {
      bookEntriesRead: read,
      bookRecordsFolded: counts.books,
      venueRecordsFolded: counts.venues,
      books,
    },
  };
}
