import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface Lv2Item {
  symbol: string;
  asks: [string, string][];
  bids: [string, string][];
  lastId: number;
  id: number;
}

/** One captured `book_lv2` frame: its symbol, action and raw text (one symbol per frame in the capture). */
export interface PoloniexFrame {
  readonly symbol: string;
  readonly action: 'snapshot' | 'update';
  readonly text: string;
}

/** Poloniex's 2022 capture (the current spot API, ws.poloniex.com/ws/public): book_lv2 frames in order. */
export function readPoloniexBooks(): PoloniexFrame[] {
  const out: PoloniexFrame[] = [];
  for (const l of readV1('POLONIEX.ws.1.0')) {
    if (l.t !== 'recv') continue;
    const m = JSON.parse(l.data) as { channel?: string; action?: 'snapshot' | 'update'; data?: Lv2Item[] };
    if (m.channel !== 'book_lv2' || m.action === undefined || m.data?.length !== 1) continue;
    out.push({ symbol: m.data[0]!.symbol, action: m.action, text: l.data });
  }
  return out;
}

/**
 * Poloniex public socket: `{event:"subscribe",channel:["book_lv2"],symbols}` is echoed as the
 * venue does, then the captured book_lv2 frames of those symbols (snapshot first) follow;
 * `{event:"ping"}` gets `{event:"pong"}`.
 */
export function startPoloniexMock(frames: readonly PoloniexFrame[]): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { event?: string; channel?: string[]; symbols?: string[] };
      if (msg.event === 'ping') return socket.send(JSON.stringify({ event: 'pong' }));
      if (msg.event !== 'subscribe' || msg.channel?.[0] !== 'book_lv2') return;
      const ids = new Set(msg.symbols ?? []);
      socket.send(JSON.stringify({ event: 'subscribe', channel: 'book_lv2', symbols: [...ids] }));
      void sendBatched(
        socket,
        frames.filter((f) => ids.has(f.symbol)).map((f) => f.text),
      );
    },
  });
}

/**
 * Independent fold of one symbol's book_lv2 frames: a snapshot replaces, an update sets absolute
 * amounts ("0" deletes). Each update names the id it follows (lastId): the capture must chain.
 */
export function foldPoloniex(frames: readonly PoloniexFrame[], symbol: string): RawBook {
  const book = new RawBook();
  let last: number | null = null;
  for (const f of frames) {
    if (f.symbol !== symbol) continue;
    const item = (JSON.parse(f.text) as { data: Lv2Item[] }).data[0]!;
    if (f.action === 'snapshot') book.clear();
    else if (item.lastId !== last) throw new Error(`capture gap in ${symbol}: ${item.lastId} after ${last}`);
    last = item.id;
    for (const [p, q] of item.bids) book.set('bids', Number(p), Number(q));
    for (const [p, q] of item.asks) book.set('asks', Number(p), Number(q));
  }
  return book;
}
