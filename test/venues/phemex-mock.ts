import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface BookFrame {
  book: { asks: [number, number][]; bids: [number, number][] };
  depth: number;
  symbol: string;
  type: 'snapshot' | 'incremental';
}

/** Phemex spot prices and quantities are integers scaled by 10^8 (priceScale and valueScale 8). */
export const PHEMEX_SPOT_SCALE = 1e8;

/** Phemex's 2021 capture: the spot `orderbook` frames (snapshot and incremental) by symbol (sGRTUSDT...). */
export function readPhemexBooks(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const l of readV1('PHEMEX.ws.1.0')) {
    if (l.t !== 'recv' || !l.data.startsWith('{"book"')) continue;
    const m = JSON.parse(l.data) as BookFrame;
    if (!m.symbol.startsWith('s')) continue;
    const list = out.get(m.symbol) ?? [];
    list.push(l.data);
    out.set(m.symbol, list);
  }
  return out;
}

/**
 * Phemex public socket: `{id,method:"orderbook.subscribe",params:[symbol]}` gets
 * `{error:null,id,result:{status:"success"}}` and that symbol's captured frames in order;
 * `server.ping` gets its pong.
 */
export function startPhemexMock(frames: ReadonlyMap<string, string[]>): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { id?: number; method?: string; params?: string[] };
      if (msg.method === 'server.ping')
        return socket.send(JSON.stringify({ error: null, id: msg.id, result: 'pong' }));
      if (msg.method !== 'orderbook.subscribe') return;
      socket.send(JSON.stringify({ error: null, id: msg.id, result: { status: 'success' } }));
      void sendBatched(socket, frames.get(msg.params?.[0] ?? '') ?? []);
    },
  });
}

/**
 * Independent fold of one symbol's frames: a snapshot replaces, an incremental frame sets
 * [priceEp, qtyEv] (qty 0 deletes); values unscaled by 10^8.
 */
export function foldPhemex(frames: readonly string[]): RawBook {
  const book = new RawBook();
  for (const text of frames) {
    const m = JSON.parse(text) as BookFrame;
    if (m.type === 'snapshot') book.clear();
    for (const [p, q] of m.book.bids) book.set('bids', p / PHEMEX_SPOT_SCALE, q / PHEMEX_SPOT_SCALE);
    for (const [p, q] of m.book.asks) book.set('asks', p / PHEMEX_SPOT_SCALE, q / PHEMEX_SPOT_SCALE);
  }
  return book;
}
