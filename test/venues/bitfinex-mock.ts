import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

/** One symbol's `book` channel in Bitfinex's 2021 capture: the venue's `subscribed` answer and its frames. */
export interface BitfinexBook {
  readonly subscribed: string;
  readonly frames: readonly string[];
}

/**
 * Bitfinex's 2021 capture (websocket v2, `book` channel, P0 / F0 / len 100): frames by symbol
 * (tIOTETH...). The recorder set flag 65536 (sequence numbers), so each frame ends with one; ccxt
 * reads only [chanId, data], so they are served as recorded.
 */
export function readBitfinexBooks(): { info: string; books: Map<string, BitfinexBook> } {
  const lines = readV1('BITFINEX.ws.11.0');
  let info = '';
  const bySymbol = new Map<string, { subscribed: string; frames: string[] }>();
  const byChannel = new Map<number, string[]>();
  for (const l of lines) {
    if (l.t !== 'recv') continue;
    const m = JSON.parse(l.data) as unknown;
    if (Array.isArray(m)) {
      byChannel.get(m[0] as number)?.push(l.data);
      continue;
    }
    const e = m as { event?: string; channel?: string; chanId?: number; symbol?: string };
    if (e.event === 'info' && info === '') info = l.data;
    if (e.event !== 'subscribed' || e.channel !== 'book') continue;
    const frames: string[] = [];
    byChannel.set(e.chanId!, frames);
    bySymbol.set(e.symbol!, { subscribed: l.data, frames });
  }
  return { info, books: bySymbol };
}

/**
 * Bitfinex public socket v2: `info` on connect; `{event:"subscribe",channel:"book",symbol,...}`
 * gets the captured `subscribed` answer (its chanId) and that channel's frames in order;
 * `{event:"conf"}` is acknowledged. The capture holds no checksum frames (not requested then).
 */
export function startBitfinexMock(
  info: string,
  books: ReadonlyMap<string, BitfinexBook>,
): Promise<MockVenue> {
  return startMockVenue({
    onConnection: (socket) => socket.send(info),
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { event?: string; channel?: string; symbol?: string; flags?: number };
      if (msg.event === 'conf')
        return socket.send(JSON.stringify({ event: 'conf', status: 'OK', flags: msg.flags }));
      if (msg.event !== 'subscribe' || msg.channel !== 'book') return;
      const book = books.get(msg.symbol ?? '');
      if (book === undefined) return;
      socket.send(book.subscribed);
      void sendBatched(socket, book.frames);
    },
  });
}

/**
 * Independent fold of a P0 book channel: entries are [price, count, amount]; amount > 0 is a bid,
 * < 0 an ask of |amount|; count 0 removes the price (amount 1 from bids, -1 from asks).
 */
export function foldBitfinex(frames: readonly string[]): RawBook {
  const book = new RawBook();
  const apply = ([price, count, amount]: [number, number, number]): void => {
    const side = amount > 0 ? 'bids' : 'asks';
    book.set(side, price, count === 0 ? 0 : Math.abs(amount));
  };
  for (const text of frames) {
    const data = (JSON.parse(text) as unknown[])[1];
    if (!Array.isArray(data)) continue; // "hb"
    if (Array.isArray(data[0])) {
      book.clear();
      for (const e of data as [number, number, number][]) apply(e);
    } else apply(data as [number, number, number]);
  }
  return book;
}
