import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Level } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { lv, obj } from './wire';

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
