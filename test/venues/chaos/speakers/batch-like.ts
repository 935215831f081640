import type { Level, ServedBook } from '../books';
import { localCcxt, pairs } from '../markets';
import type { Speaker } from '../speaker';
import { interleavedChecksum, lv, obj } from './wire';

type Book = { readonly bids: readonly Level[]; readonly asks: readonly Level[] };

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
