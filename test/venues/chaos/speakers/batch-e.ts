import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Session, Speaker } from '../speaker';
import { crc32u, lv, obj } from './wire';

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

export type { Session };
