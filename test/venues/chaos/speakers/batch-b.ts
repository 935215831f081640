import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { interleavedChecksum, lv, obj } from './wire';

/**
 * bitget v2 public (ccxt pro/bitget.js): `{op:"subscribe",args:[{instType:"SPOT",channel:"books",instId}]}`;
 * `action:"snapshot"` then `action:"update"` with the CRC32 of the top 25 (ccxt checks it);
 * text `ping` gets `pong`.
 */
export function bitgetSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const arg = (id: string) => ({ instType: 'SPOT', channel: 'books', instId: id });
  return {
    id: 'bitget',
    markets,
    ccxt: (u) => localCcxt('bitget', u, markets),
    onFrame: (s, msg, text) => {
      if (text === 'ping') return s.send('pong');
      const m = obj(msg) as { op?: string; args?: { instId: string }[] };
      if (m.op !== 'subscribe') return;
      for (const a of m.args ?? []) s.send({ event: 'subscribe', arg: a });
      s.subscribe((m.args ?? []).map((a) => a.instId));
    },
    snapshot: (_s, id, book) => [
      {
        action: 'snapshot',
        arg: arg(id),
        data: [{ asks: lv(book.asks), bids: lv(book.bids), checksum: 0, ts: String(Date.now()) }],
        ts: Date.now(),
      },
    ],
    delta: (s, id, change) => [
      {
        action: 'update',
        arg: arg(id),
        data: [
          {
            asks: lv(change.asks),
            bids: lv(change.bids),
            checksum: interleavedChecksum(s.venue.state(id).book),
            ts: String(Date.now()),
          },
        ],
        ts: Date.now(),
      },
    ],
  };
}

/**
 * bithumb generation 2 (ccxt pro/bithumb.js, Upbit-style): a JSON array `[{ticket},{type:"orderbook",codes:["KRW-BTC"]}]`;
 * every `orderbook` message is the whole book as `orderbook_units` (bid/ask pairs).
 */
export function bithumbSpeaker(): Speaker {
  return upbitLike('bithumb');
}

/** upbit and bithumb generation 2 share the protocol (market ids QUOTE-BASE). */
export function upbitLike(id: 'bithumb' | 'upbit'): Speaker {
  const markets = pairs((b, q) => `${q}-${b}`, 5);
  const frame = (
    code: string,
    book: { bids: readonly [number, number][]; asks: readonly [number, number][] },
    type: string,
  ) => ({
    type: 'orderbook',
    code,
    timestamp: Date.now(),
    total_ask_size: 0,
    total_bid_size: 0,
    orderbook_units: book.bids.map(([bp, bs], i) => ({
      ask_price: book.asks[i]?.[0],
      ask_size: book.asks[i]?.[1],
      bid_price: bp,
      bid_size: bs,
    })),
    stream_type: type,
  });
  return {
    id,
    markets,
    ccxt: (u) => localCcxt(id, u, markets),
    onFrame: (s, msg) => {
      if (!Array.isArray(msg)) return;
      // Each request replaces the connection's subscriptions: ccxt resends all of them, one entry per book.
      const codes = (msg as { type?: string; codes?: string[] }[]).flatMap((x) =>
        x.type === 'orderbook' ? (x.codes ?? []) : [],
      );
      s.subscribe(codes);
    },
    snapshot: (_s, code, book) => [frame(code, { bids: [...book.bids], asks: [...book.asks] }, 'SNAPSHOT')],
    delta: (s, code) => {
      const b = s.book(code);
      return [frame(code, { bids: [...b.bids], asks: [...b.asks] }, 'REALTIME')];
    },
  };
}

/** bitopro (ccxt pro/bitopro.js): one connection per book, `.../order-books/<pair>`; every message is the whole book. */
export function bitoproSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}_${q}`.toLowerCase(), 5);
  const frame = (
    pair: string,
    book: { bids: readonly [number, number][]; asks: readonly [number, number][] },
  ) => ({
    event: 'ORDER_BOOK',
    timestamp: Date.now(),
    datetime: new Date().toISOString(),
    pair,
    limit: 5,
    bids: book.bids.map(([price, amount]) => ({
      price: String(price),
      amount: String(amount),
      count: 1,
      total: String(amount),
    })),
    asks: book.asks.map(([price, amount]) => ({
      price: String(price),
      amount: String(amount),
      count: 1,
      total: String(amount),
    })),
  });
  return {
    id: 'bitopro',
    markets,
    ccxt: (u) => localCcxt('bitopro', u, markets),
    // Connecting is subscribing: the book is named in the path.
    onConnection: (s) => {
      const pair = decodeURIComponent(s.path.split('/').pop() ?? '').split(':')[0]!;
      s.subscribe([pair]);
    },
    onFrame: () => undefined,
    snapshot: (_s, pair, book) => [frame(pair, { bids: [...book.bids], asks: [...book.asks] })],
    delta: (s, pair) => {
      const b = s.book(pair);
      return [frame(pair, { bids: [...b.bids], asks: [...b.asks] })];
    },
  };
}

/** bitrue spot (ccxt pro/bitrue.js): gzip; `{event:"sub",params:{cb_id,channel:"market_btcusdt_simple_depth_step0"}}`; whole books. */
export function bitrueSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 5);
  const frame = (
    id: string,
    book: { bids: readonly [number, number][]; asks: readonly [number, number][] },
  ) => ({
    channel: `market_${id.toLowerCase()}_simple_depth_step0`,
    ts: Date.now(),
    tick: { buys: lv(book.bids), asks: lv(book.asks) },
  });
  return {
    id: 'bitrue',
    markets,
    binary: 'gzip',
    ccxt: (u) => localCcxt('bitrue', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { event?: string; params?: { channel?: string }; ping?: number };
      if (m.ping !== undefined) return s.send({ pong: m.ping });
      if (m.event !== 'sub' || m.params?.channel === undefined) return;
      s.send({ channel: m.params.channel, cb_id: '', event_rep: 'subed', status: 'ok', ts: Date.now() });
      s.subscribe([m.params.channel.split('_')[1]!.toUpperCase()]);
    },
    snapshot: (_s, id, book) => [frame(id, { bids: [...book.bids], asks: [...book.asks] })],
    delta: (s, id) => {
      const b = s.book(id);
      return [frame(id, { bids: [...b.bids], asks: [...b.asks] })];
    },
  };
}

/**
 * bitstamp (ccxt pro/bitstamp.js): `{event:"bts:subscribe",data:{channel:"diff_order_book_btcusd"}}`;
 * diffs carry microtimestamp; ccxt loads GET /api/v2/order_book/<pair>/ after a few and applies the newer diffs.
 */
export function bitstampSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`.toLowerCase(), 6);
  return {
    id: 'bitstamp',
    markets,
    ccxt: (u) => localCcxt('bitstamp', u, markets, { options: { watchOrderBook: { snapshotDelay: 1 } } }),
    onFrame: (s, msg) => {
      const m = obj(msg) as { event?: string; data?: { channel?: string } };
      if (m.event === 'bts:heartbeat')
        return s.send({ event: 'bts:heartbeat', channel: '', data: { status: 'success' } });
      if (m.event === 'bts:unsubscribe' && m.data?.channel !== undefined) {
        s.unsubscribe([m.data.channel.replace('diff_order_book_', '')]);
        return s.send({ event: 'bts:unsubscription_succeeded', channel: m.data.channel, data: {} });
      }
      if (m.event !== 'bts:subscribe' || m.data?.channel === undefined) return;
      s.send({ event: 'bts:subscription_succeeded', channel: m.data.channel, data: {} });
      s.subscribe([m.data.channel.replace('diff_order_book_', '')]);
    },
    snapshot: () => [],
    delta: (s, id, change) => {
      const seq = s.venue.state(id).seq;
      return [
        {
          event: 'data',
          channel: `diff_order_book_${id}`,
          data: {
            timestamp: String(Math.floor(Date.now() / 1000)),
            microtimestamp: String(seq),
            bids: lv(change.bids),
            asks: lv(change.asks),
          },
        },
      ];
    },
    rest: (req, venue) => {
      const m = /\/order_book\/([a-z0-9]+)\/?$/.exec(req.url.pathname);
      if (m === null) return undefined;
      const book = venue.firstBook(m[1]!, true);
      return {
        body: {
          timestamp: String(Math.floor(Date.now() / 1000)),
          microtimestamp: String(venue.state(m[1]!).seq),
          bids: lv(book.bids),
          asks: lv(book.asks),
        },
      };
    },
  };
}
