import { crc32 } from 'node:zlib';
import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Session, Speaker } from '../speaker';
import { lv, obj } from './wire';

/** Bybit accepts at most this many args per spot subscribe request (and answers more with an error). */
export const BYBIT_SPOT_ARGS_PER_REQUEST = 10;

/**
 * bybit, bybiteu, bybitid v5 public spot (ccxt pro/bybit.js): `{op:"subscribe",req_id,args:[topics]}`
 * of at most 10 topics (more are refused with `success:false`, as Bybit does); `orderbook.200.<SYM>`
 * snapshot then deltas with a contiguous `u`; `{op:"ping"}` gets a pong. `markets` lets a test feed
 * a whole market list.
 */
export function bybitLike(id: 'bybit' | 'bybiteu' | 'bybitid', count = 6): Speaker {
  const markets = bybitMarkets(count);
  const frame = (
    mid: string,
    type: 'snapshot' | 'delta',
    book: { bids: readonly Level[]; asks: readonly Level[] },
    u: number,
  ) => ({
    topic: `orderbook.200.${mid}`,
    ts: Date.now(),
    type,
    data: { s: mid, b: lv(book.bids), a: lv(book.asks), u, seq: u },
    cts: Date.now(),
  });
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { op?: string; req_id?: string; args?: string[] };
      if (m.op === 'ping')
        return s.send({ success: true, ret_msg: 'pong', conn_id: 'mock', req_id: m.req_id, op: 'ping' });
      if (m.op === 'unsubscribe') {
        s.unsubscribe((m.args ?? []).map((t) => t.split('.')[2]!));
        return s.send({ success: true, ret_msg: '', conn_id: 'mock', req_id: m.req_id, op: 'unsubscribe' });
      }
      if (m.op !== 'subscribe') return;
      const args = m.args ?? [];
      if (args.length > BYBIT_SPOT_ARGS_PER_REQUEST) {
        s.send({
          success: false,
          ret_msg: `args size >${BYBIT_SPOT_ARGS_PER_REQUEST}`,
          conn_id: 'mock',
          req_id: m.req_id,
          op: 'subscribe',
        });
        return;
      }
      s.send({ success: true, ret_msg: '', conn_id: 'mock', req_id: m.req_id, op: 'subscribe' });
      s.subscribe(args.map((t) => t.split('.')[2]!));
    },
    snapshot: (s, mid, book) => [frame(mid, 'snapshot', book, s.venue.state(mid).seq)],
    delta: (s, mid, change) => [frame(mid, 'delta', change, s.venue.state(mid).seq)],
  };
}

/**
 * `count` spot markets of the default asset universe as Bybit names them (its spot list has 21
 * such markets: the default pairs first, then the other combinations Bybit lists).
 */
export function bybitMarkets(count: number) {
  const more: [string, string][] = [
    ['SOL', 'BTC'],
    ['XRP', 'BTC'],
    ['SOL', 'USDC'],
    ['XRP', 'USDC'],
    ['USDC', 'USDT'],
    ['ETH', 'EUR'],
    ['SOL', 'EUR'],
    ['XRP', 'EUR'],
    ['USDT', 'EUR'],
    ['USDC', 'EUR'],
    ['USDT', 'USD'],
  ];
  const base = pairs((b, q) => `${b}${q}`);
  const extra = more.map(([b, q]) => ({ id: `${b}${q}`, base: b, quote: q }));
  return [...base, ...extra].slice(0, count);
}

/**
 * coinbase Advanced Trade (ccxt pro/coinbase.js): `{type:"subscribe",product_ids,channel:"level2"}`;
 * `l2_data` snapshot then updates ({side, price_level, new_quantity}). As the venue does, a
 * USDC product is served as its USD book (product_id BTC-USD).
 */
export function coinbaseSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 10);
  let seq = 0;
  const updates = (book: { bids: readonly Level[]; asks: readonly Level[] }) => [
    ...book.bids.map(([p, q]) => ({
      side: 'bid',
      event_time: new Date().toISOString(),
      price_level: String(p),
      new_quantity: String(q),
    })),
    ...book.asks.map(([p, q]) => ({
      side: 'offer',
      event_time: new Date().toISOString(),
      price_level: String(p),
      new_quantity: String(q),
    })),
  ];
  const frame = (mid: string, type: string, book: { bids: readonly Level[]; asks: readonly Level[] }) => ({
    channel: 'l2_data',
    client_id: '',
    timestamp: new Date().toISOString(),
    sequence_num: seq++,
    events: [{ type, product_id: mid, updates: updates(book) }],
  });
  return {
    id: 'coinbase',
    markets,
    ccxt: (u) => localCcxt('coinbase', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { type?: string; channel?: string; product_ids?: string[] };
      if (m.type !== 'subscribe' || m.channel !== 'level2') return;
      const ids = [...new Set((m.product_ids ?? []).map((p) => p.replace(/-USDC$/, '-USD')))];
      s.send({
        channel: 'subscriptions',
        timestamp: new Date().toISOString(),
        sequence_num: seq++,
        events: [{ subscriptions: { level2: ids } }],
      });
      s.subscribe(ids);
    },
    snapshot: (_s, mid, book) => [frame(mid, 'snapshot', book)],
    delta: (_s, mid, change) => [frame(mid, 'update', change)],
  };
}

/** CoinEx's depth checksum: CRC32 (unsigned) of bid1_price:bid1_amount:...:ask1_price:ask1_amount over the sent book. */
export function coinexChecksum(book: ServedBook): number {
  const parts = [...book.bids, ...book.asks].flatMap(([p, q]) => [String(p), String(q)]);
  return crc32(parts.join(':'));
}

/** coinex v2 spot (ccxt pro/coinex.js): gzip; `depth.subscribe` with `market_list`; full books (is_full) with a checksum. */
export function coinexSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const frame = (mid: string, book: ServedBook) => ({
    method: 'depth.update',
    data: {
      market: mid,
      is_full: true,
      depth: {
        asks: lv(book.asks),
        bids: lv(book.bids),
        last: String(book.bids[0]?.[0] ?? 0),
        updated_at: Date.now(),
        checksum: coinexChecksum(book),
      },
    },
    id: null,
  });
  return {
    id: 'coinex',
    markets,
    binary: 'gzip',
    ccxt: (u) => localCcxt('coinex', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as {
        method?: string;
        id?: number;
        params?: { market_list?: [string, number, string, boolean][] };
      };
      if (m.method === 'server.ping')
        return s.send({ id: m.id, code: 0, message: 'OK', data: { result: 'pong' } });
      if (m.method !== 'depth.subscribe') return;
      s.send({ id: m.id, code: 0, message: 'OK' });
      s.subscribe((m.params?.market_list ?? []).map((x) => x[0]));
    },
    snapshot: (_s, mid, book) => [frame(mid, book)],
    delta: (s, mid) => [frame(mid, s.book(mid))],
  };
}

/**
 * cryptocom (ccxt pro/cryptocom.js): `{method:"subscribe",params:{channels:["book.BTC_USDT.50"]}}`;
 * `book` snapshot then `book.update` with u/pu (ccxt raises on a pu mismatch); counted levels [p, q, n].
 */
export function cryptocomSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  const cnt = (ls: readonly Level[]) => ls.map(([p, q]) => [String(p), String(q), q === 0 ? '0' : '1']);
  return {
    id: 'cryptocom',
    markets,
    ccxt: (u) => localCcxt('cryptocom', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: { channels?: string[] } };
      if (m.method === 'public/respond-heartbeat') return;
      if (m.method !== 'subscribe') return;
      s.send({ id: m.id, method: 'subscribe', code: 0 });
      s.subscribe(
        (m.params?.channels ?? []).filter((c) => c.startsWith('book.')).map((c) => c.split('.')[1]!),
      );
    },
    snapshot: (s, mid, book) => {
      const u = s.venue.state(mid).seq;
      return [
        {
          id: -1,
          method: 'subscribe',
          code: 0,
          result: {
            instrument_name: mid,
            subscription: `book.${mid}.50`,
            channel: 'book',
            depth: 50,
            data: [{ asks: cnt(book.asks), bids: cnt(book.bids), t: Date.now(), tt: Date.now(), u }],
          },
        },
      ];
    },
    delta: (s, mid, change) => {
      const u = s.venue.state(mid).seq;
      return [
        {
          id: -1,
          method: 'subscribe',
          code: 0,
          result: {
            instrument_name: mid,
            subscription: `book.${mid}.50`,
            channel: 'book.update',
            depth: 50,
            data: [
              {
                update: { asks: cnt(change.asks), bids: cnt(change.bids) },
                t: Date.now(),
                tt: Date.now(),
                u,
                pu: u - 1,
              },
            ],
          },
        },
      ];
    },
  };
}

/** deepcoin spot (ccxt pro/deepcoin.js): `sendTopicAction` on TopicID 25 with `DeepCoin_<BASE/QUOTE>_<tick>`; `PMO` pushes, `t:"f"` the full book. */
export function deepcoinSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const bySymbol = new Map(markets.map((m) => [`${m.base}/${m.quote}`, m.id]));
  let mt = Date.now();
  const entries = (mid: string, book: { bids: readonly Level[]; asks: readonly Level[] }) => {
    const symbol = mid.replace('-', '/');
    return [
      ...book.bids.map(([p, v]) => ({ d: { I: symbol, D: '0', P: p, V: v } })),
      ...book.asks.map(([p, v]) => ({ d: { I: symbol, D: '1', P: p, V: v } })),
    ];
  };
  return {
    id: 'deepcoin',
    markets,
    ccxt: (u) => localCcxt('deepcoin', u, markets),
    onFrame: (s, msg, text) => {
      if (text === 'ping') return s.send('pong');
      const m = obj(msg) as {
        sendTopicAction?: { Action: string; FilterValue: string; LocalNo: number; TopicID: string };
      };
      const a = m.sendTopicAction;
      if (a === undefined || a.Action !== '1') return;
      s.send({
        a: 'RecvTopicAction',
        m: 'Success',
        r: [{ d: { A: '1', L: a.LocalNo, T: a.TopicID, F: a.FilterValue } }],
      });
      const symbol = a.FilterValue.replace(/^DeepCoin_/, '').replace(/_[^_]*$/, '');
      const mid = bySymbol.get(symbol);
      if (mid !== undefined) s.subscribe([mid]);
    },
    snapshot: (_s, mid, book) => [{ a: 'PMO', m: 'Success', t: 'f', mt: ++mt, r: entries(mid, book) }],
    delta: (_s, mid, change) => [{ a: 'PMO', m: 'Success', t: 'i', mt: ++mt, r: entries(mid, change) }],
  };
}

/** deribit (ccxt pro/deribit.js): JSON-RPC `public/subscribe` to `book.<instrument>.100ms`; snapshot then changes (["new"|"change"|"delete", p, q]). */
export function deribitSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`, 6);
  let change = 1;
  const side = (ls: readonly Level[], kind: string) => ls.map(([p, q]) => [q === 0 ? 'delete' : kind, p, q]);
  const frame = (mid: string, type: string, book: { bids: readonly Level[]; asks: readonly Level[] }) => {
    const id = change++;
    return {
      jsonrpc: '2.0',
      method: 'subscription',
      params: {
        channel: `book.${mid}.100ms`,
        data: {
          type,
          timestamp: Date.now(),
          instrument_name: mid,
          change_id: id,
          prev_change_id: id - 1,
          bids: side(book.bids, type === 'snapshot' ? 'new' : 'change'),
          asks: side(book.asks, type === 'snapshot' ? 'new' : 'change'),
        },
      },
    };
  };
  return {
    id: 'deribit',
    markets,
    ccxt: (u) => localCcxt('deribit', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: { channels?: string[] } };
      if (m.method !== 'public/subscribe') return;
      const channels = m.params?.channels ?? [];
      s.send({ jsonrpc: '2.0', id: m.id, result: channels });
      s.subscribe(channels.filter((c) => c.startsWith('book.')).map((c) => c.split('.')[1]!));
    },
    snapshot: (_s, mid, book) => [frame(mid, 'snapshot', book)],
    delta: (_s, mid, c) => [frame(mid, 'change', c)],
  };
}

/** derive (ccxt pro/derive.js): JSON-RPC `subscribe` to `orderbook.<instrument>.10.<depth>`; every push is the whole book. */
export function deriveSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const channels = new WeakMap<Session, Map<string, string>>();
  const frame = (channel: string, mid: string, book: { bids: readonly Level[]; asks: readonly Level[] }) => ({
    method: 'subscription',
    params: {
      channel,
      data: {
        instrument_name: mid,
        timestamp: Date.now(),
        publish_id: Date.now(),
        bids: lv(book.bids),
        asks: lv(book.asks),
      },
    },
  });
  const channelOf = (s: Session, mid: string): string =>
    channels.get(s)?.get(mid) ?? `orderbook.${mid}.10.10`;
  return {
    id: 'derive',
    markets,
    ccxt: (u) => localCcxt('derive', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: number; params?: { channels?: string[] } };
      if (m.method !== 'subscribe') return;
      const list = (m.params?.channels ?? []).filter((c) => c.startsWith('orderbook.'));
      s.send({
        id: m.id,
        result: { status: Object.fromEntries(list.map((c) => [c, 'ok'])), current_subscriptions: list },
      });
      const map = channels.get(s) ?? new Map<string, string>();
      channels.set(s, map);
      for (const c of list) map.set(c.split('.')[1]!, c);
      s.subscribe(list.map((c) => c.split('.')[1]!));
    },
    snapshot: (s, mid, book) => [frame(channelOf(s, mid), mid, book)],
    delta: (s, mid) => [frame(channelOf(s, mid), mid, s.book(mid))],
  };
}
