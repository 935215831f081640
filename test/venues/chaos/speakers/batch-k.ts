import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { crc32u, lv, obj } from './wire';

type Book = { readonly bids: readonly Level[]; readonly asks: readonly Level[] };

/** kraken websocket v2 (ccxt pro/kraken.js): `{method:"subscribe",params:{channel:"book",symbol:[...]}}`; `snapshot` then `update` with a CRC32 of the top 10. */
export function krakenSpeaker(): Speaker {
  const markets = pairs(
    (b, q) => `${b === 'BTC' ? 'XBT' : b}${q}`,
    6,
    (b, q) => ({
      info: { wsname: `${b === 'BTC' ? 'XBT' : b}/${q}` },
      precision: { price: 0.01, amount: 1e-8 },
    }),
  );
  const symbolOf = new Map(markets.map((m) => [`${m.base}/${m.quote}`, m.id]));
  const idToSymbol = new Map(markets.map((m) => [m.id, `${m.base}/${m.quote}`]));
  const side = (ls: readonly Level[]) => ls.map(([price, qty]) => ({ price, qty }));
  const frame = (mid: string, type: string, book: Book, full: ServedBook) => ({
    channel: 'book',
    type,
    data: [
      {
        symbol: idToSymbol.get(mid),
        bids: side(book.bids),
        asks: side(book.asks),
        checksum: krakenChecksum(full),
        timestamp: new Date().toISOString(),
      },
    ],
  });
  return {
    id: 'kraken',
    markets,
    ccxt: (u) => localCcxt('kraken', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as {
        method?: string;
        req_id?: number;
        params?: { channel?: string; symbol?: string[]; depth?: number };
      };
      if (m.method === 'ping')
        return s.send({
          method: 'pong',
          req_id: m.req_id,
          time_in: new Date().toISOString(),
          time_out: new Date().toISOString(),
        });
      if (m.method !== 'subscribe' || m.params?.channel !== 'book') return;
      const ids: string[] = [];
      for (const symbol of m.params.symbol ?? []) {
        s.send({
          method: 'subscribe',
          req_id: m.req_id,
          result: { channel: 'book', depth: m.params.depth ?? 10, snapshot: true, symbol },
          success: true,
          time_in: new Date().toISOString(),
          time_out: new Date().toISOString(),
        });
        const mid = symbolOf.get(symbol);
        if (mid !== undefined) ids.push(mid);
      }
      s.subscribe(ids);
    },
    snapshot: (_s, mid, book) => [frame(mid, 'snapshot', book, book)],
    delta: (s, mid, change) => [frame(mid, 'update', change, s.venue.state(mid).book)],
  };
}

/** Kraken's book checksum: top 10 asks then bids, price and qty with the point and leading zeros dropped (2 and 8 decimals here). */
export function krakenChecksum(book: ServedBook): number {
  const f = (x: number, d: number): string => x.toFixed(d).replace('.', '').replace(/^0+/, '');
  let text = '';
  for (const [p, q] of book.asks.slice(0, 10)) text += f(p, 2) + f(q, 8);
  for (const [p, q] of book.bids.slice(0, 10)) text += f(p, 2) + f(q, 8);
  return crc32u(text);
}

/**
 * kucoin spot (ccxt pro/kucoin.js): POST /api/v1/bullet-public hands out the socket URL;
 * `{type:"subscribe",topic:"/market/level2:BTC-USDT,ETH-USDT"}` is acknowledged, l2update
 * changes carry sequences, and ccxt loads GET /api/v1/market/orderbook/level2_100 after a few.
 */
export function kucoinSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  return {
    id: 'kucoin',
    markets,
    ccxt: (u) => localCcxt('kucoin', u, markets, { options: { watchOrderBook: { snapshotDelay: 1 } } }),
    onConnection: (s) => s.send({ id: 'welcome', type: 'welcome' }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { id?: string; type?: string; topic?: string };
      if (m.type === 'ping') return s.send({ id: m.id, type: 'pong', timestamp: Date.now() * 1000 });
      if (m.type === 'unsubscribe' && m.topic !== undefined) {
        s.unsubscribe((m.topic.split(':')[1] ?? '').split(','));
        return s.send({ id: m.id, type: 'ack' });
      }
      if (m.type !== 'subscribe' || m.topic === undefined) return;
      s.send({ id: m.id, type: 'ack' });
      const [channel, ids] = m.topic.split(':');
      if (channel === '/market/level2') s.subscribe((ids ?? '').split(','));
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const seq = s.venue.state(mid).seq;
      const rows = (ls: readonly Level[]) => ls.map(([p, q]) => [String(p), String(q), String(seq)]);
      return [
        {
          type: 'message',
          topic: `/market/level2:${mid}`,
          subject: 'trade.l2update',
          data: {
            changes: { asks: rows(change.asks), bids: rows(change.bids) },
            sequenceEnd: seq,
            sequenceStart: seq,
            symbol: mid,
            time: Date.now(),
          },
        },
      ];
    },
    rest: (req, venue) => {
      if (req.url.pathname.endsWith('/api/v1/bullet-public'))
        return {
          body: {
            code: '200000',
            data: {
              token: 'mock',
              instanceServers: [
                {
                  endpoint: `${venue.ws}/kucoin-socket`,
                  encrypt: false,
                  protocol: 'websocket',
                  pingInterval: 18000,
                  pingTimeout: 10000,
                },
              ],
            },
          },
        };
      if (!/\/api\/v1\/market\/orderbook\/level2_\d+$/.test(req.url.pathname)) return undefined;
      const mid = req.url.searchParams.get('symbol') ?? '';
      const book = venue.firstBook(mid, true);
      return {
        body: {
          code: '200000',
          data: {
            time: Date.now(),
            sequence: String(venue.state(mid).seq),
            bids: lv(book.bids),
            asks: lv(book.asks),
          },
        },
      };
    },
  };
}

/** lbank (ccxt pro/lbank.js): `{action:"subscribe",subscribe:"depth",depth,pair}`; whole books; `{action:"ping"}` gets a pong. */
export function lbankSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`.toLowerCase(), 6);
  const frame = (mid: string, book: Book) => ({
    type: 'depth',
    pair: mid,
    SERVER: 'V2',
    TS: new Date().toISOString().replace('Z', ''),
    depth: { asks: lv(book.asks), bids: lv(book.bids) },
  });
  return {
    id: 'lbank',
    markets,
    ccxt: (u) => localCcxt('lbank', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { action?: string; subscribe?: string; pair?: string; ping?: string };
      if (m.action === 'ping') return s.send({ action: 'pong', pong: m.ping });
      if (m.action !== 'subscribe' || m.subscribe !== 'depth' || m.pair === undefined) return;
      s.subscribe([m.pair]);
    },
    snapshot: (_s, mid, book) => [frame(mid, book)],
    delta: (s, mid) => [frame(mid, s.book(mid))],
  };
}

/** lighter (ccxt pro/lighter.js): `{type:"subscribe",channel:"order_book/<id>"}`; `subscribed/order_book` then `update/order_book` ({price,size}). */
export function lighterSpeaker(): Speaker {
  const markets = pairs(() => '', 6).map((m, i) => ({ ...m, id: String(i) }));
  const side = (ls: readonly Level[]) =>
    ls.map(([price, size]) => ({ price: String(price), size: String(size) }));
  const frame = (mid: string, type: string, book: Book, offset: number) => ({
    channel: `order_book:${mid}`,
    type,
    timestamp: Date.now(),
    order_book: { asks: side(book.asks), bids: side(book.bids), offset },
  });
  return {
    id: 'lighter',
    markets,
    ccxt: (u) => localCcxt('lighter', u, markets),
    onConnection: (s) => s.send({ type: 'connected', session_id: 'mock' }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { type?: string; channel?: string };
      if (m.type === 'pong') return;
      if (m.type !== 'subscribe' || m.channel?.startsWith('order_book/') !== true) return;
      s.subscribe([m.channel.slice('order_book/'.length)]);
    },
    snapshot: (s, mid, book) => [frame(mid, 'subscribed/order_book', book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [frame(mid, 'update/order_book', change, s.venue.state(mid).seq)],
  };
}
