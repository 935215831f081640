import { crc32 } from 'node:zlib';
import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Session, Speaker } from '../speaker';
import { lv, obj } from './wire';

type Book = { readonly bids: readonly Level[]; readonly asks: readonly Level[] };

/**
 * gate spot (ccxt pro/gate.js): `spot.obu` with payload `ob.BTC_USDT.50`; a `full` book then
 * changes stamped with `u`. gateeu: `spot.order_book_update` (U/u changes, acknowledged by id) and
 * the book over REST (GET /spot/order_book?with_id=true) once a change is cached.
 */
export function gateSpeaker(id: 'gate' | 'gateeu'): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  const eu = id === 'gateeu';
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets, { options: { watchOrderBook: { snapshotDelay: 1 } } }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { id?: number; channel?: string; event?: string; payload?: string[] };
      if (m.channel === 'spot.ping')
        return s.send({ time: Math.floor(Date.now() / 1000), channel: 'spot.pong', event: '', result: null });
      if (m.event === 'unsubscribe') {
        const pl = m.payload ?? [];
        s.unsubscribe(m.channel === 'spot.obu' ? pl.map((p) => p.split('.')[1]!) : [pl[0]!]);
        return s.send({
          time: Math.floor(Date.now() / 1000),
          id: m.id,
          channel: m.channel,
          event: 'unsubscribe',
          payload: pl,
          result: { status: 'success' },
        });
      }
      if (m.event !== 'subscribe') return;
      s.send({
        time: Math.floor(Date.now() / 1000),
        id: m.id,
        channel: m.channel,
        event: 'subscribe',
        result: { status: 'success' },
      });
      const pl = m.payload ?? [];
      if (m.channel === 'spot.obu') for (const p of pl) s.data[p.split('.')[1]!] = p;
      s.subscribe(m.channel === 'spot.obu' ? pl.map((p) => p.split('.')[1]!) : [pl[0]!]);
    },
    snapshot: (s, mid, book) =>
      eu
        ? []
        : [
            {
              channel: 'spot.obu',
              event: 'update',
              time_ms: Date.now(),
              result: {
                t: Date.now(),
                full: true,
                s: `ob.${mid}.50`,
                u: s.venue.state(mid).seq,
                b: lv(book.bids),
                a: lv(book.asks),
              },
            },
          ],
    delta: (s, mid, change) => {
      const u = s.venue.state(mid).seq;
      if (eu)
        return [
          {
            channel: 'spot.order_book_update',
            event: 'update',
            time: 0,
            result: {
              t: Date.now(),
              e: 'depthUpdate',
              E: 0,
              s: mid,
              U: u,
              u,
              b: lv(change.bids),
              a: lv(change.asks),
            },
          },
        ];
      return [
        {
          channel: 'spot.obu',
          event: 'update',
          time_ms: Date.now(),
          result: { t: Date.now(), s: `ob.${mid}.50`, U: u, u, b: lv(change.bids), a: lv(change.asks) },
        },
      ];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/spot/order_book')) return undefined;
      const mid = req.url.searchParams.get('currency_pair') ?? '';
      const book = venue.firstBook(mid, true);
      return {
        body: {
          id: venue.state(mid).seq,
          current: Date.now(),
          update: Date.now(),
          asks: lv(book.asks),
          bids: lv(book.bids),
        },
      };
    },
  };
}

/**
 * gemini market data v2 (ccxt pro/gemini.js watchOrderBook): `{type:"subscribe",subscriptions:[{name:"l2",symbols}]}`;
 * the first `l2_updates` of a symbol carries the whole book (with trades and auction_events), later
 * ones its changes (["buy"|"sell", price, quantity], 0 deletes).
 */
export function geminiSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`.toLowerCase(), 6);
  const changes = (book: Book) => [
    ...book.bids.map(([p, q]) => ['buy', String(p), String(q)]),
    ...book.asks.map(([p, q]) => ['sell', String(p), String(q)]),
  ];
  return {
    id: 'gemini',
    markets,
    ccxt: (u) => localCcxt('gemini', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { type?: string; subscriptions?: { name: string; symbols: string[] }[] };
      if (m.type !== 'subscribe') return;
      s.subscribe(
        (m.subscriptions ?? [])
          .filter((x) => x.name === 'l2')
          .flatMap((x) => x.symbols.map((y) => y.toLowerCase())),
      );
    },
    snapshot: (_s, mid, book) => [
      {
        type: 'l2_updates',
        symbol: mid.toUpperCase(),
        changes: changes(book),
        trades: [],
        auction_events: [],
      },
    ],
    delta: (_s, mid, change) => [{ type: 'l2_updates', symbol: mid.toUpperCase(), changes: changes(change) }],
  };
}

/** hashkey (ccxt pro/hashkey.js): `{symbol,topic:"depth",event:"sub"}`; every `depth` push is the whole book. */
export function hashkeySpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const frame = (mid: string, book: Book, seq: number) => ({
    symbol: mid,
    symbolName: mid,
    topic: 'depth',
    params: {},
    data: [{ e: 301, s: mid, t: Date.now(), v: String(seq), b: lv(book.bids), a: lv(book.asks), o: 0 }],
    f: false,
    sendTime: Date.now(),
    id: seq,
  });
  return {
    id: 'hashkey',
    markets,
    ccxt: (u) => localCcxt('hashkey', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { symbol?: string; topic?: string; event?: string; ping?: number };
      if (m.ping !== undefined) return s.send({ pong: m.ping });
      if (m.event !== 'sub' || m.topic !== 'depth' || m.symbol === undefined) return;
      s.subscribe([m.symbol]);
    },
    snapshot: (s, mid, book) => [frame(mid, book, s.venue.state(mid).seq)],
    delta: (s, mid) => [frame(mid, s.book(mid), s.venue.state(mid).seq)],
  };
}

/** hollaex (ccxt pro/hollaex.js): `{op:"subscribe",args:["orderbook:btc-usdt"]}`; whole books (`partial`); `{op:"ping"}` gets `pong`. */
export function hollaexSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`.toLowerCase(), 6);
  const frame = (mid: string, book: Book) => ({
    topic: 'orderbook',
    action: 'partial',
    symbol: mid,
    data: {
      bids: lv(book.bids).map(([p, q]) => [Number(p), Number(q)]),
      asks: lv(book.asks).map(([p, q]) => [Number(p), Number(q)]),
      timestamp: new Date().toISOString(),
    },
    time: Math.floor(Date.now() / 1000),
  });
  return {
    id: 'hollaex',
    markets,
    ccxt: (u) => localCcxt('hollaex', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { op?: string; args?: string[] };
      if (m.op === 'ping') return s.send({ message: 'pong' });
      if (m.op !== 'subscribe') return;
      s.subscribe(
        (m.args ?? []).filter((a) => a.startsWith('orderbook:')).map((a) => a.slice('orderbook:'.length)),
      );
    },
    snapshot: (_s, mid, book) => [frame(mid, book)],
    delta: (s, mid) => [frame(mid, s.book(mid))],
  };
}

/** hyperliquid (ccxt pro/hyperliquid.js): `{method:"subscribe",subscription:{type:"l2Book",coin}}`; whole books; `{method:"ping"}` gets `{channel:"pong"}`. */
export function hyperliquidSpeaker(): Speaker {
  const markets = pairs((_b, _q) => '', 6).map((m, i) => ({ ...m, id: `@${i + 1}` }));
  const side = (ls: readonly Level[]) => ls.map(([px, sz]) => ({ px: String(px), sz: String(sz), n: 1 }));
  const frame = (coin: string, book: Book) => ({
    channel: 'l2Book',
    data: { coin, time: Date.now(), levels: [side(book.bids), side(book.asks)] },
  });
  return {
    id: 'hyperliquid',
    markets,
    ccxt: (u) => localCcxt('hyperliquid', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; subscription?: { type?: string; coin?: string } };
      if (m.method === 'ping') return s.send({ channel: 'pong' });
      if (m.method !== 'subscribe' || m.subscription?.type !== 'l2Book' || m.subscription.coin === undefined)
        return;
      s.send({
        channel: 'subscriptionResponse',
        data: { method: 'subscribe', subscription: m.subscription },
      });
      s.subscribe([m.subscription.coin]);
    },
    snapshot: (_s, coin, book) => [frame(coin, book)],
    delta: (s, coin) => [frame(coin, s.book(coin))],
  };
}

/** Independent Reserve's checksum of a level value: 8 decimals, point and leading zeros dropped (ccxt pro/independentreserve.js valueToChecksum). */
export function irValue(x: number): string {
  return String(Number(x.toFixed(8).replace('.', '')));
}

/** CRC32 (unsigned) of the top 10 bids then asks as Independent Reserve sends it. */
function irChecksum(book: ServedBook): number {
  let text = '';
  for (const [p, q] of book.bids.slice(0, 10)) text += irValue(p) + irValue(q);
  for (const [p, q] of book.asks.slice(0, 10)) text += irValue(p) + irValue(q);
  return crc32u(text);
}

/**
 * independentreserve (ccxt pro/independentreserve.js): one connection per book,
 * `/orderbook/100?subscribe=BTC-USD`; `OrderBookSnapshot` then `OrderBookChange` with a CRC32 of
 * the top 10 (ccxt publishes from the first change, checking it).
 */
export function independentreserveSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const side = (ls: readonly Level[]) => ls.map(([Price, Volume]) => ({ Price, Volume }));
  const channel = (mid: string) => `orderbook/100/${mid.replace('-', '/')}`;
  return {
    id: 'independentreserve',
    markets,
    ccxt: (u) => localCcxt('independentreserve', u, markets),
    onConnection: (s) => {
      const pair = new URL(s.path, 'http://x').searchParams.get('subscribe') ?? '';
      s.send({ Event: 'Subscriptions', Data: [channel(pair)], Time: Date.now() });
      s.subscribe([pair]);
    },
    onFrame: () => undefined,
    snapshot: (_s, mid, book) => [
      {
        Channel: channel(mid),
        Event: 'OrderBookSnapshot',
        Nonce: 1,
        Time: Date.now(),
        Data: { Bids: side(book.bids), Offers: side(book.asks), Crc32: irChecksum(book) },
      },
    ],
    delta: (s, mid, change) => [
      {
        Channel: channel(mid),
        Event: 'OrderBookChange',
        Nonce: s.venue.state(mid).seq,
        Time: Date.now(),
        Data: {
          Bids: side(change.bids),
          Offers: side(change.asks),
          Crc32: irChecksum(s.venue.state(mid).book),
        },
      },
    ],
  };
}

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

function crc32u(text: string): number {
  return crc32(text) >>> 0;
}

export type { Session };
