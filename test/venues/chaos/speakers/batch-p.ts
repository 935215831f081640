import type { Level } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { lv, obj } from './wire';

type Book = { readonly bids: readonly Level[]; readonly asks: readonly Level[] };

/** poloniex (ccxt pro/poloniex.js): `{event:"subscribe",channel:["book_lv2"],symbols}`; `snapshot` then `update`; `{event:"ping"}` gets a pong. */
export function poloniexSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  const frame = (mid: string, action: string, book: Book, seq: number) => ({
    channel: 'book_lv2',
    action,
    data: [
      {
        symbol: mid,
        asks: lv(book.asks),
        bids: lv(book.bids),
        createTime: Date.now(),
        lastId: seq - 1,
        id: seq,
        ts: Date.now(),
      },
    ],
  });
  return {
    id: 'poloniex',
    markets,
    ccxt: (u) => localCcxt('poloniex', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { event?: string; channel?: string[]; symbols?: string[] };
      if (m.event === 'ping') return s.send({ event: 'pong' });
      if (m.event !== 'subscribe' || m.channel?.[0] !== 'book_lv2') return;
      s.send({ event: 'subscribe', channel: 'book_lv2', symbols: m.symbols });
      s.subscribe(m.symbols ?? []);
    },
    snapshot: (s, mid, book) => [frame(mid, 'snapshot', book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [frame(mid, 'update', change, s.venue.state(mid).seq)],
  };
}

/** toobit (ccxt pro/toobit.js): `{symbol:"BTCUSDT,ETHUSDT",topic:"depth",event:"sub"}`; every `depth` push is the whole book; `{ping}` gets `{pong}`. */
export function toobitSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const frame = (mid: string, book: Book) => ({
    symbol: mid,
    symbolName: mid,
    topic: 'depth',
    params: {},
    data: [{ s: mid, t: Date.now(), v: '1', b: lv(book.bids), a: lv(book.asks) }],
    f: true,
    sendTime: Date.now(),
  });
  return {
    id: 'toobit',
    markets,
    ccxt: (u) => localCcxt('toobit', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { symbol?: string; topic?: string; event?: string; ping?: number };
      if (m.ping !== undefined) return s.send({ pong: m.ping });
      if (m.event !== 'sub' || m.topic !== 'depth' || m.symbol === undefined) return;
      s.subscribe(m.symbol.split(','));
    },
    snapshot: (_s, mid, book) => [frame(mid, book)],
    delta: (s, mid) => [frame(mid, s.book(mid))],
  };
}

/** weex v3 spot (ccxt pro/weex.js): `{id,method:"SUBSCRIBE",params:["BTCUSDT@depth200"]}`; `depthSnapshot` then `depth`. */
export function weexSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const frame = (mid: string, e: string, book: Book, u: number) => ({
    e,
    E: Date.now(),
    s: mid,
    u,
    b: lv(book.bids),
    a: lv(book.asks),
  });
  return {
    id: 'weex',
    markets,
    ccxt: (u) => localCcxt('weex', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { id?: number; method?: string; params?: string[]; event?: string };
      if (m.event === 'pong' || m.method === 'PONG') return;
      if (m.method !== 'SUBSCRIBE') return;
      s.send({ id: m.id, result: null });
      s.subscribe((m.params ?? []).map((p) => p.split('@')[0]!));
    },
    snapshot: (s, mid, book) => [frame(mid, 'depthSnapshot', book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [frame(mid, 'depth', change, s.venue.state(mid).seq)],
  };
}

/** whitebit (ccxt pro/whitebit.js): `depth_subscribe` [market, limit, interval, true]; `depth_update` [full, {asks,bids}, market]. */
export function whitebitSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  return {
    id: 'whitebit',
    markets,
    ccxt: (u) => localCcxt('whitebit', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: unknown[] };
      if (m.method === 'ping') return s.send({ id: m.id, result: 'pong', error: null });
      if (m.method !== 'depth_subscribe') return;
      s.send({ id: m.id, result: { status: 'success' }, error: null });
      s.subscribe([String(m.params?.[0])]);
    },
    snapshot: (_s, mid, book) => [
      {
        id: null,
        method: 'depth_update',
        params: [true, { timestamp: Date.now() / 1000, asks: lv(book.asks), bids: lv(book.bids) }, mid],
      },
    ],
    delta: (_s, mid, change) => [
      {
        id: null,
        method: 'depth_update',
        params: [false, { timestamp: Date.now() / 1000, asks: lv(change.asks), bids: lv(change.bids) }, mid],
      },
    ],
  };
}

/** xt spot (ccxt pro/xt.js): `{method:"subscribe",params:["depth_update@btc_usdt"]}`; changes carry `i`; ccxt loads GET /v4/public/depth after a few. */
export function xtSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`.toLowerCase(), 6);
  return {
    id: 'xt',
    markets,
    ccxt: (u) => localCcxt('xt', u, markets, { options: { watchOrderBook: { snapshotDelay: 1 } } }),
    onFrame: (s, msg, text) => {
      if (text === 'ping') return s.send('pong');
      const m = obj(msg) as { method?: string; id?: string; params?: string[] };
      if (m.method === 'unsubscribe') {
        s.unsubscribe((m.params ?? []).map((p) => p.split('@')[1]!));
        return s.send({ id: m.id, code: 0, msg: 'SUCCESS' });
      }
      if (m.method !== 'subscribe') return;
      s.send({ id: m.id, code: 0, msg: 'SUCCESS' });
      s.subscribe((m.params ?? []).filter((p) => p.startsWith('depth_update@')).map((p) => p.split('@')[1]!));
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const i = s.venue.state(mid).seq;
      return [
        {
          topic: 'depth_update',
          event: `depth_update@${mid}`,
          data: { s: mid, fi: i, i, a: lv(change.asks), b: lv(change.bids) },
        },
      ];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/v4/public/depth')) return undefined;
      const mid = req.url.searchParams.get('symbol') ?? '';
      const book = venue.firstBook(mid, true);
      return {
        body: {
          rc: 0,
          mc: 'SUCCESS',
          ma: [],
          result: {
            timestamp: Date.now(),
            lastUpdateId: venue.state(mid).seq,
            bids: lv(book.bids),
            asks: lv(book.asks),
          },
        },
      };
    },
  };
}
