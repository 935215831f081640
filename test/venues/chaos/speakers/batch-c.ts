import type { Level } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { lv, obj } from './wire';

const num = (ls: readonly Level[]): number[][] => ls.map(([p, q]) => [p, q]);

/**
 * htx and bittrade spot (ccxt pro/htx.js, pro/bittrade.js): gzip; `{sub:"market.btcusdt.mbp.150",id}`
 * is acknowledged, changes flow with seqNum/prevSeqNum, and ccxt asks `{req:...}` for the snapshot
 * (answered once a change has gone out: htx resyncs from the first cached change's prevSeqNum);
 * `{ping}` from the venue gets ccxt's `{pong}`.
 */
export function htxLike(id: 'htx' | 'bittrade'): Speaker {
  const markets = pairs((b, q) => `${b}${q}`.toLowerCase(), 6);
  const channel = (mid: string): string => `market.${mid}.mbp.150`;
  return {
    id,
    markets,
    binary: 'gzip',
    ccxt: (u) => localCcxt(id, u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { sub?: string; req?: string; unsub?: string; id?: string };
      if (m.unsub !== undefined) {
        s.unsubscribe([m.unsub.split('.')[1]!]);
        return s.send({ id: m.id, status: 'ok', unsubbed: m.unsub, ts: Date.now() });
      }
      if (m.sub !== undefined) {
        s.send({ id: m.id, status: 'ok', subbed: m.sub, ts: Date.now() });
        s.subscribe([m.sub.split('.')[1]!]);
        return;
      }
      if (m.req === undefined) return;
      const mid = m.req.split('.')[1]!;
      const answer = (): void => {
        const state = s.venue.state(mid);
        const book = s.venue.firstBook(mid, true);
        s.send({
          id: m.id,
          rep: m.req,
          status: 'ok',
          ts: Date.now(),
          data: { seqNum: state.seq, bids: num(book.bids), asks: num(book.asks) },
        });
      };
      // After the next change, so ccxt holds one to sync from.
      setTimeout(answer, 300);
    },
    snapshot: () => [],
    delta: (s, mid, change) => {
      const seq = s.venue.state(mid).seq;
      return [
        {
          ch: channel(mid),
          ts: Date.now(),
          tick: { seqNum: seq, prevSeqNum: seq - 1, bids: num(change.bids), asks: num(change.asks) },
        },
      ];
    },
  };
}

/**
 * bitvavo (ccxt pro/bitvavo.js): `{action:"subscribe",channels:[{name:"book",markets}]}` gets
 * `{event:"subscribed"}`; changes carry a nonce; ccxt asks `{action:"getBook",market}` for the book.
 */
export function bitvavoSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  return {
    id: 'bitvavo',
    markets,
    ccxt: (u) => localCcxt('bitvavo', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as {
        action?: string;
        market?: string;
        channels?: { name: string; markets: string[] }[];
      };
      if (m.action === 'getBook' && m.market !== undefined) {
        const book = s.venue.firstBook(m.market, true);
        s.send({
          action: 'getBook',
          response: {
            market: m.market,
            nonce: s.venue.state(m.market).seq,
            bids: lv(book.bids),
            asks: lv(book.asks),
          },
        });
        return;
      }
      if (m.action !== 'subscribe') return;
      const ids = (m.channels ?? []).filter((c) => c.name === 'book').flatMap((c) => c.markets);
      s.send({ event: 'subscribed', subscriptions: { book: ids } });
      s.subscribe(ids);
    },
    snapshot: () => [],
    delta: (s, mid, change) => [
      {
        event: 'book',
        market: mid,
        nonce: s.venue.state(mid).seq,
        bids: lv(change.bids),
        asks: lv(change.asks),
      },
    ],
  };
}

/** blockchaincom (ccxt pro/blockchaincom.js): `{action:"subscribe",channel:"l2",symbol}`; `snapshot` then `updated` ({px,qty,num}). */
export function blockchaincomSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}-${q}`, 6);
  const side = (ls: readonly Level[]) => ls.map(([px, qty]) => ({ px, qty, num: qty === 0 ? 0 : 1 }));
  let seq = 0;
  return {
    id: 'blockchaincom',
    markets,
    ccxt: (u) => localCcxt('blockchaincom', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { action?: string; channel?: string; symbol?: string };
      if (m.action !== 'subscribe' || m.channel !== 'l2' || m.symbol === undefined) return;
      s.send({ seqnum: seq++, event: 'subscribed', channel: 'l2', symbol: m.symbol });
      s.subscribe([m.symbol]);
    },
    snapshot: (_s, mid, book) => [
      {
        seqnum: seq++,
        event: 'snapshot',
        channel: 'l2',
        symbol: mid,
        timestamp: new Date().toISOString(),
        bids: side(book.bids),
        asks: side(book.asks),
      },
    ],
    delta: (_s, mid, change) => [
      {
        seqnum: seq++,
        event: 'updated',
        channel: 'l2',
        symbol: mid,
        timestamp: new Date().toISOString(),
        bids: side(change.bids),
        asks: side(change.asks),
      },
    ],
  };
}

/** bullish (ccxt pro/bullish.js): JSON-RPC `subscribe` to `l2Orderbook`; every `V1TALevel2` message is the whole book (flat price, amount lists). */
export function bullishSpeaker(): Speaker {
  const markets = pairs((b, q) => `${b}${q}`, 6);
  const flat = (ls: readonly Level[]) => ls.flatMap(([p, q]) => [String(p), String(q)]);
  const frame = (mid: string, book: { bids: readonly Level[]; asks: readonly Level[] }, seq: number) => ({
    type: 'snapshot',
    dataType: 'V1TALevel2',
    data: {
      symbol: mid,
      bids: flat(book.bids),
      asks: flat(book.asks),
      sequenceNumberRange: [seq, seq],
      datetime: new Date().toISOString(),
      timestamp: String(Date.now()),
    },
  });
  return {
    id: 'bullish',
    markets,
    ccxt: (u) => localCcxt('bullish', u, markets),
    onFrame: (s, msg) => {
      const m = obj(msg) as { method?: string; id?: string; params?: { topic?: string; symbol?: string } };
      if (m.method === 'keepalivePing')
        return s.send({ id: m.id, jsonrpc: '2.0', result: { message: 'Keep alive pong' } });
      if (m.method !== 'subscribe' || m.params?.symbol === undefined) return;
      s.send({
        id: m.id,
        jsonrpc: '2.0',
        result: { responseCodeName: 'OK', responseCode: '200', message: 'Successfully subscribed' },
      });
      s.subscribe([m.params.symbol]);
    },
    snapshot: (s, mid, book) => [frame(mid, book, s.venue.state(mid).seq)],
    delta: (s, mid) => [frame(mid, s.book(mid), s.venue.state(mid).seq)],
  };
}
