import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

/** One captured API v2 book frame (`snapshotOrderbook` or `updateOrderbook`). */
interface V2Book {
  method: 'snapshotOrderbook' | 'updateOrderbook';
  params: {
    ask: { price: string; size: string }[];
    bid: { price: string; size: string }[];
    sequence: number;
    timestamp: string;
    symbol: string;
  };
}

/** HitBTC's 2021 capture (API v2): book frames by symbol, in order. */
export function readHitbtcBooks(): Map<string, V2Book[]> {
  const out = new Map<string, V2Book[]>();
  for (const l of readV1('HITBTC.ws.1.0')) {
    if (l.t !== 'recv' || !/"method":"(snapshot|update)Orderbook"/.test(l.data)) continue;
    const m = JSON.parse(l.data) as V2Book;
    const list = out.get(m.params.symbol) ?? [];
    list.push(m);
    out.set(m.params.symbol, list);
  }
  return out;
}

/**
 * The frame in API v3, which ccxt speaks (translated): `orderbook/full` with `snapshot` or
 * `update` keyed by symbol, `{t, s, a, b}` carrying the v2 frame's timestamp, sequence and levels
 * (same prices and sizes, [price, size] pairs instead of objects).
 */
export function toV3(m: V2Book): string {
  const p = m.params;
  const item = {
    t: Date.parse(p.timestamp),
    s: p.sequence,
    a: p.ask.map((l) => [l.price, l.size]),
    b: p.bid.map((l) => [l.price, l.size]),
  };
  const kind = m.method === 'snapshotOrderbook' ? 'snapshot' : 'update';
  return JSON.stringify({ ch: 'orderbook/full', [kind]: { [p.symbol]: item } });
}

/**
 * HitBTC API v3 public socket: `{method:"subscribe",ch:"orderbook/full",params:{symbols},id}` is
 * acknowledged, then each symbol's frames follow, translated from v2.
 */
export function startHitbtcMock(books: ReadonlyMap<string, V2Book[]>): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as {
        method?: string;
        ch?: string;
        id?: number;
        params?: { symbols?: string[] };
      };
      if (msg.method !== 'subscribe' || msg.ch !== 'orderbook/full') return;
      const symbols = msg.params?.symbols ?? [];
      socket.send(JSON.stringify({ result: { ch: msg.ch, subscriptions: symbols }, id: msg.id }));
      for (const s of symbols) void sendBatched(socket, (books.get(s) ?? []).map(toV3));
    },
  });
}

/** Independent fold of a symbol's v2 frames: a snapshot replaces, an update sets sizes ("0" deletes). */
export function foldHitbtc(frames: readonly V2Book[]): RawBook {
  const book = new RawBook();
  for (const m of frames) {
    if (m.method === 'snapshotOrderbook') book.clear();
    for (const l of m.params.bid) book.set('bids', Number(l.price), Number(l.size));
    for (const l of m.params.ask) book.set('asks', Number(l.price), Number(l.size));
  }
  return book;
}
