import { BookCache, bookHash } from '@app/books';
import type { EventRecord } from '@app/events';

/**
 * The versioned read written as plainly as possible, apart from the code under test (libs/history):
 * group the records by what they describe (a book, a market, a venue), keep each group in log
 * order, pick the record with the greatest receivedAt <= t (ties: the later one), and fold the
 * group's records from its first up to that one. `records` is the order they were written in,
 * which is each key's log order (a key always goes to one partition).
 */
export function versionedFold(records: readonly EventRecord[], t: number): BookCache {
  const groups = new Map<string, EventRecord[]>();
  for (const r of records) {
    const key = r.type === 'venue' ? `venue ${r.exchangeId}` : `${r.type} ${r.exchangeId} ${r.symbol}`;
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  const cache = new BookCache();
  for (const list of groups.values()) {
    let chosen = -1;
    for (let i = 0; i < list.length; i++)
      if (list[i]!.receivedAt <= t && (chosen < 0 || list[i]!.receivedAt >= list[chosen]!.receivedAt))
        chosen = i;
    for (let i = 0; i <= chosen; i++) cache.apply(list[i]!);
  }
  return cache;
}

/** The per-book cut (the rule before the versioned read): each record with receivedAt <= t, in log order. */
export function cutFold(records: readonly EventRecord[], t: number): BookCache {
  const cache = new BookCache();
  for (const r of records) if (r.receivedAt <= t) cache.apply(r);
  return cache;
}

/**
 * What a reader of past books could tell apart: every book (sync state, sequence, receivedAt and
 * every level), every market (fee, assets) and every venue (flags, last error, reconnect count).
 */
export function stateHashes(cache: BookCache): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of cache.allBooks()) out[`book ${b.exchangeId}|${b.symbol}`] = `${b.inSync} ${bookHash(b)}`;
  for (const symbol of cache.symbols())
    for (const l of cache.listings(symbol))
      if (l.market !== undefined) out[`market ${l.exchangeId}|${symbol}`] = JSON.stringify(l.market);
  for (const v of cache.venueStates())
    out[`venue ${v.exchangeId}`] = JSON.stringify([v.certified, v.connected, v.lastError, v.reconnectCount]);
  return out;
}
