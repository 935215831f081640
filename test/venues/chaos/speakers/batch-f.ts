import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { interleavedChecksum, lv, obj } from './wire';

type Book = { readonly bids: readonly Level[]; readonly asks: readonly Level[] };

interface MexcWrapper {
  encode(message: unknown): { finish(): Uint8Array };
}
/** The protobuf codec ccxt ships for MEXC (the venue's spot streams are protobuf since 2025). */
const mexcProto = (): MexcWrapper => {
  // Not an export of the package: resolved by path beside its entry point.
  const req = createRequire(__filename);
  const entry = req.resolve('ccxt');
  const mod = req(join(dirname(entry), '..', 'js', 'src', 'protobuf', 'mexc', 'compiled.cjs')) as {
    PushDataV3ApiWrapper?: MexcWrapper;
    default?: { PushDataV3ApiWrapper: MexcWrapper };
  };
  return mod.PushDataV3ApiWrapper ?? mod.default!.PushDataV3ApiWrapper;
};

/**
 * mexc spot (ccxt pro/mexc.js): `{method:"SUBSCRIPTION",params:["spot@public.aggre.depth.v3.api.pb@100ms@BTCUSDT"]}`;
 * protobuf changes with fromVersion/toVersion; ccxt loads GET /api/v3/depth after a few.
 */
export function mexcSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const wrapper = mexcProto();
  const side = (ls: readonly Level[]) => ls.map(([p, q]) => ({ price: String(p), quantity: String(q) }));
  return {
    id: 'mexc',
    markets,
    ccxt: (u) => localCcxt('mexc', u, markets, { options: { watchOrderBook: { snapshotDelay: 1 } } }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; params?: string[] };
      if (m.method === 'ping' || m.method === 'PING') return s.send({ id: 0, code: 0, msg: 'PONG' });
      if (m.method === 'UNSUBSCRIPTION') {
        s.unsubscribe((m.params ?? []).map((p) => p.split('@').pop()!));
        return s.send({ id: 0, code: 0, msg: (m.params ?? []).join(',') });
      }
      if (m.method !== 'SUBSCRIPTION') return;
      for (const p of m.params ?? []) s.send({ id: 0, code: 0, msg: p });
      s.subscribe((m.params ?? []).map((p) => p.split('@').pop()!));
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const v = String(s.venue.state(mid).seq);
      const data = {
        channel: `spot@public.aggre.depth.v3.api.pb@100ms@${mid}`,
        symbol: mid,
        sendTime: Date.now(),
        publicAggreDepths: {
          asks: side(change.asks),
          bids: side(change.bids),
          eventType: 'spot@public.aggre.depth.v3.api.pb@100ms',
          fromVersion: v,
          toVersion: v,
        },
      };
      return [Buffer.from(wrapper.encode(data).finish())];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/api/v3/depth')) return undefined;
      const mid = req.url.searchParams.get('symbol') ?? '';
      const book = venue.firstBook(mid, true);
      return {
        body: {
          lastUpdateId: venue.state(mid).seq,
          bids: lv(book.bids),
          asks: lv(book.asks),
          timestamp: Date.now(),
        },
      };
    },
  };
}

/**
 * nado (ccxt pro/nado.js): the book over REST (GET .../orderbook?ticker_id=...), then `book_depth`
 * changes (x18 fixed point) chained by last_max_timestamp on the subscriptions socket.
 */
export function nadoSpeaker(): Speaker {
  const markets = pairs(() => '', 6).map((m, i) => ({
    ...m,
    id: String(i + 1),
    extra: { info: { ticker_id: `${m.base}_${m.quote}`, product_id: i + 1 } },
  }));
  const byTicker = new Map(markets.map((m) => [`${m.base}_${m.quote}`, m.id]));
  const x18 = (x: number): string => (BigInt(Math.round(x * 1e8)) * 10n ** 10n).toString();
  const stamp = (seq: number): string => String(BigInt(seq) * 1_000_000n);
  return {
    id: 'nado',
    markets,
    ccxt: (u) => localCcxt('nado', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; stream?: { type?: string; product_id?: number } };
      if (m.method === 'ping') return s.send({ id: m.id, result: { method: 'pong' } });
      if (m.method !== 'subscribe' || m.stream?.type !== 'book_depth') return;
      s.send({ result: null, id: m.id });
      s.subscribe([String(m.stream.product_id)]);
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const seq = s.venue.state(mid).seq;
      return [
        {
          type: 'book_depth',
          product_id: Number(mid),
          min_timestamp: stamp(seq),
          max_timestamp: stamp(seq),
          last_max_timestamp: stamp(seq - 1),
          bids: change.bids.map(([p, q]) => [x18(p), x18(q)]),
          asks: change.asks.map(([p, q]) => [x18(p), x18(q)]),
        },
      ];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/orderbook')) return undefined;
      const mid = byTicker.get(req.url.searchParams.get('ticker_id') ?? '') ?? '';
      const book = venue.firstBook(mid, true);
      // The REST book is as of the last change sent: the next change chains from it.
      return {
        body: {
          ticker_id: req.url.searchParams.get('ticker_id'),
          bids: book.bids,
          asks: book.asks,
          timestamp: Date.now(),
        },
      };
    },
  };
}

/** onetrading (ccxt pro/onetrading.js): `SUBSCRIBE` / `UPDATE_SUBSCRIPTION` to ORDER_BOOK with instrument_codes; snapshot then changes. */
export function onetradingSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  return {
    id: 'onetrading',
    markets,
    ccxt: (u) => localCcxt('onetrading', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { type?: string; channels?: { name: string; instrument_codes?: string[] }[] };
      if (m.type !== 'SUBSCRIBE' && m.type !== 'UPDATE_SUBSCRIPTION') return;
      const ch = (m.channels ?? []).find((c) => c.name === 'ORDER_BOOK');
      if (ch === undefined) return;
      s.send({
        type: m.type === 'SUBSCRIBE' ? 'SUBSCRIPTIONS' : 'SUBSCRIPTION_UPDATED',
        channels: m.channels,
        time: new Date().toISOString(),
      });
      const known = (s.data.subscribed as Set<string> | undefined) ?? new Set<string>();
      s.data.subscribed = known;
      const fresh = (ch.instrument_codes ?? []).filter((c) => !known.has(c));
      for (const c of fresh) known.add(c);
      s.subscribe(fresh);
    },
    snapshot: (_s, mid, book) => [
      {
        type: 'ORDER_BOOK_SNAPSHOT',
        channel_name: 'ORDER_BOOK',
        instrument_code: mid,
        time: new Date().toISOString(),
        bids: lv(book.bids),
        asks: lv(book.asks),
      },
    ],
    delta: (_s, mid, change) => [
      {
        type: 'ORDER_BOOK_UPDATE',
        channel_name: 'ORDER_BOOK',
        instrument_code: mid,
        time: new Date().toISOString(),
        changes: [
          ...change.bids.map(([p, q]) => ['BUY', String(p), String(q)]),
          ...change.asks.map(([p, q]) => ['SELL', String(p), String(q)]),
        ],
      },
    ],
  };
}

/** p2b (ccxt pro/p2b.js): `depth.subscribe` [market, limit, interval]; `depth.update` [full, {asks,bids}, market]. */
export function p2bSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  return {
    id: 'p2b',
    markets,
    ccxt: (u) => localCcxt('p2b', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: unknown[] };
      if (m.method === 'server.ping') return s.send({ error: null, result: 'pong', id: m.id });
      if (m.method !== 'depth.subscribe') return;
      s.send({ error: null, result: { status: 'success' }, id: m.id });
      s.subscribe([String(m.params?.[0])]);
    },
    snapshot: (_s, mid, book) => [
      { method: 'depth.update', params: [true, { asks: lv(book.asks), bids: lv(book.bids) }, mid], id: null },
    ],
    delta: (_s, mid, change) => [
      {
        method: 'depth.update',
        params: [false, { asks: lv(change.asks), bids: lv(change.bids) }, mid],
        id: null,
      },
    ],
  };
}

/** pacifica (ccxt pro/pacifica.js): `{method:"subscribe",params:{source:"book",symbol}}`; every `book` push is the whole book ({p,a,n}). */
export function pacificaSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const side = (ls: readonly Level[]) => ls.map(([p, a]) => ({ p: String(p), a: String(a), n: 1 }));
  const frame = (mid: string, book: Book, li: number) => ({
    channel: 'book',
    data: { s: mid, l: [side(book.bids), side(book.asks)], t: Date.now(), li },
  });
  return {
    id: 'pacifica',
    markets,
    ccxt: (u) => localCcxt('pacifica', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; params?: { source?: string; symbol?: string } };
      if (m.method === 'ping') return s.send({ channel: 'pong' });
      if (m.method !== 'subscribe' || m.params?.source !== 'book' || m.params.symbol === undefined) return;
      s.send({ channel: 'subscribe', data: m.params });
      s.subscribe([m.params.symbol]);
    },
    snapshot: (s, mid, book) => [frame(mid, book, s.venue.state(mid).seq)],
    delta: (s, mid) => [frame(mid, s.book(mid), s.venue.state(mid).seq)],
  };
}

/** phemex spot (ccxt pro/phemex.js): `orderbook.subscribe` [symbol]; levels as scaled integers (priceScale and valueScale 8). */
export function phemexSpeaker(): Speaker {
  const markets = pairs(
    (b, q) => `s${b}${q}`,
    6,
    () => ({ priceScale: 8, valueScale: 8, info: {} }),
  );
  const en = (ls: readonly Level[]) => ls.map(([p, q]) => [Math.round(p * 1e8), Math.round(q * 1e8)]);
  const frame = (mid: string, type: string, book: Book, seq: number) => ({
    book: { asks: en(book.asks), bids: en(book.bids) },
    depth: 30,
    sequence: seq,
    symbol: mid,
    timestamp: Date.now() * 1_000_000,
    type,
  });
  return {
    id: 'phemex',
    markets,
    ccxt: (u) => localCcxt('phemex', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: string[] };
      if (m.method === 'server.ping') return s.send({ error: null, id: m.id, result: 'pong' });
      if (m.method !== 'orderbook.subscribe') return;
      s.send({ error: null, id: m.id, result: { status: 'success' } });
      s.subscribe(m.params ?? []);
    },
    snapshot: (s, mid, book) => [frame(mid, 'snapshot', book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [frame(mid, 'incremental', change, s.venue.state(mid).seq)],
  };
}

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

/**
 * binance and binanceus spot (ccxt pro/binance.js): `{method:"SUBSCRIBE",params:["btcusdt@depth@100ms"],id}`;
 * the acknowledgement makes ccxt load GET /api/v3/depth (lastUpdateId), then U/u diffs apply.
 */
export function binanceLike(id: 'binance' | 'binanceus'): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const byLower = new Map(markets.map((m) => [m.id.toLowerCase(), m.id]));
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets, { options: { fetchMarkets: { types: ['spot'] } } }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; params?: string[]; id?: number };
      if (m.method !== 'SUBSCRIBE') return;
      s.send({ result: null, id: m.id });
      s.subscribe((m.params ?? []).map((p) => byLower.get(p.split('@')[0]!) ?? p));
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const u = s.venue.state(mid).seq;
      return [
        {
          stream: `${mid.toLowerCase()}@depth@100ms`,
          data: { e: 'depthUpdate', E: Date.now(), s: mid, U: u, u, b: lv(change.bids), a: lv(change.asks) },
        },
      ];
    },
    rest: (req, venue) => {
      if (!req.url.pathname.endsWith('/api/v3/depth')) return undefined;
      const mid = req.url.searchParams.get('symbol') ?? '';
      const book = venue.firstBook(mid, true);
      return { body: { lastUpdateId: venue.state(mid).seq, bids: lv(book.bids), asks: lv(book.asks) } };
    },
  };
}

/** okx, myokx and okxus v5 public (ccxt pro/okx.js): `{op:"subscribe",args:[{channel:"books",instId}]}`; snapshot then updates with seqId and the CRC32 of the top 25. */
export function okxLike(id: 'okx' | 'myokx' | 'okxus'): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const rows = (ls: readonly Level[]) => ls.map(([p, q]) => [String(p), String(q), '0', q === 0 ? '0' : '1']);
  const frame = (mid: string, action: string, book: Book, full: ServedBook, seq: number) => ({
    arg: { channel: 'books', instId: mid },
    action,
    data: [
      {
        asks: rows(book.asks),
        bids: rows(book.bids),
        ts: String(Date.now()),
        checksum: interleavedChecksum(full),
        prevSeqId: action === 'snapshot' ? -1 : seq - 1,
        seqId: seq,
      },
    ],
  });
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets),
    onFrame: (s, msg, text) => {
      if (text === 'ping') return s.send('pong');
      const m = obj(msg) as { op?: string; args?: { channel: string; instId: string }[] };
      if (m.op === 'unsubscribe') {
        s.unsubscribe((m.args ?? []).map((a) => a.instId));
        for (const arg of m.args ?? []) s.send({ event: 'unsubscribe', arg, connId: 'mock' });
        return;
      }
      if (m.op !== 'subscribe') return;
      for (const arg of m.args ?? []) s.send({ event: 'subscribe', arg, connId: 'mock' });
      s.subscribe((m.args ?? []).filter((a) => a.channel === 'books').map((a) => a.instId));
    },
    snapshot: (s, mid, book) => [frame(mid, 'snapshot', book, book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [
      frame(mid, 'update', change, s.venue.state(mid).book, s.venue.state(mid).seq),
    ],
  };
}
