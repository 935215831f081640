import type { Level } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Session, Speaker } from '../speaker';

import { lv, obj } from './wire';

/**
 * aster spot (ccxt pro/aster.js): Binance-style `{method:"SUBSCRIBE",params:["btcusdt@depth20"]}`;
 * every `depthUpdate` carries the whole top 20 (ccxt resets the book with each).
 */
export function asterSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const byLower = new Map(markets.map((m) => [m.id.toLowerCase(), m.id]));
  const frame = (id: string, book: { bids: readonly Level[]; asks: readonly Level[] }) => ({
    stream: `${id.toLowerCase()}@depth20`,
    data: {
      e: 'depthUpdate',
      E: Date.now(),
      T: Date.now(),
      s: id,
      U: 1,
      u: 2,
      pu: 0,
      b: lv(book.bids),
      a: lv(book.asks),
    },
  });
  return {
    id: 'aster',
    markets,
    ccxt: (u) => localCcxt('aster', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; params?: string[]; id?: number };
      if (m.method !== 'SUBSCRIBE') return;
      s.send({ result: null, id: m.id });
      s.subscribe((m.params ?? []).map((p) => byLower.get(p.split('@')[0]!) ?? p));
    },
    snapshot: (_s, id, book) => [frame(id, book)],
    // A partial-depth stream: each push is the whole top of the book.
    delta: (s, id) => [frame(id, s.book(id))],
  };
}

/**
 * backpack (ccxt pro/backpack.js): `{method:"SUBSCRIBE",params:["depth.BTC_USDT"]}`; `depth` events
 * with U/u; ccxt fetches the REST snapshot (GET /api/v1/depth, lastUpdateId) after a few cached
 * events and applies the newer ones.
 */
export function backpackSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  return {
    id: 'backpack',
    markets,
    ccxt: (u) => localCcxt('backpack', u, markets, { options: { watchOrderBook: { snapshotDelay: 2 } } }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; params?: string[] };
      if (m.method !== 'SUBSCRIBE') return;
      s.subscribe((m.params ?? []).map((p) => p.replace(/^depth\./, '')));
    },
    // The book comes over REST; the socket carries only changes.
    snapshot: () => [],
    delta: (s, id, change) => {
      const seq = s.venue.state(id).seq;
      const T = Date.now() * 1000;
      return [
        {
          stream: `depth.${id}`,
          data: { e: 'depth', E: T, s: id, a: lv(change.asks), b: lv(change.bids), U: seq, u: seq, T },
        },
      ];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/api/v1/depth')) return undefined;
      const id = req.url.searchParams.get('symbol') ?? '';
      const state = venue.state(id);
      const book = venue.firstBook(id, true);
      return {
        body: {
          asks: lv([...book.asks].reverse()),
          bids: lv(book.bids),
          lastUpdateId: String(state.seq),
          timestamp: Date.now() * 1000,
        },
      };
    },
  };
}

/** hitbtc and bequant (ccxt pro/hitbtc.js, API v3): `{method:"subscribe",ch:"orderbook/full",params:{symbols}}`. */
export function hitbtcSpeaker(id: 'hitbtc' | 'bequant'): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const body = (book: { bids: readonly Level[]; asks: readonly Level[] }, seq: number) => ({
    t: Date.now(),
    s: seq,
    a: lv(book.asks),
    b: lv(book.bids),
  });
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; ch?: string; id?: number; params?: { symbols?: string[] } };
      if (m.method !== 'subscribe') return;
      const symbols = m.params?.symbols ?? [];
      s.send({ result: { ch: m.ch, subscriptions: symbols }, id: m.id });
      s.subscribe(symbols);
    },
    snapshot: (s, mid, book) => [
      { ch: 'orderbook/full', snapshot: { [mid]: body(book, s.venue.state(mid).seq) } },
    ],
    delta: (s, mid, change) => [
      { ch: 'orderbook/full', update: { [mid]: body(change, s.venue.state(mid).seq) } },
    ],
  };
}

/** bingx spot (ccxt pro/bingx.js): gzip frames; `{id,dataType:"BTC-USDT@depth100"}`; each push is the whole book. */
export function bingxSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const frame = (id: string, book: { bids: readonly Level[]; asks: readonly Level[] }, seq: number) => ({
    code: 0,
    dataType: `${id}@depth100`,
    data: { bids: lv(book.bids), asks: lv([...book.asks].reverse()), lastUpdateId: seq },
    timestamp: Date.now(),
  });
  return {
    id: 'bingx',
    markets,
    binary: 'gzip',
    ccxt: (u) => localCcxt('bingx', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { id?: string; dataType?: string };
      if (m.dataType === undefined) return;
      s.send({ id: m.id, code: 0, msg: '', dataType: '', data: null });
      s.subscribe([m.dataType.split('@')[0]!]);
    },
    snapshot: (s, id, book) => [frame(id, book, s.venue.state(id).seq)],
    delta: (s, id) => [frame(id, s.book(id), s.venue.state(id).seq)],
  };
}

export type { Session };
