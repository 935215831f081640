import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { sendPaced, startMockVenue, type MockVenue, type RestReply } from './mock-server';

type V1Level = [string, string, string, string?];
type V1Body = { as?: V1Level[]; bs?: V1Level[]; a?: V1Level[]; b?: V1Level[]; c?: string };

/** One captured v1 book frame of a pair: snapshot or update (an update may carry asks and bids). */
export interface KrakenFrame {
  readonly snapshot: boolean;
  readonly asks: V1Level[];
  readonly bids: V1Level[];
  readonly checksum: number | undefined;
}

/** Kraken's 2021 capture: AssetPairs entries and the `book-1000` frames of each v1 pair name (e.g. XBT/CHF). */
export function readKrakenBooks(): {
  pairs: Record<string, { wsname: string; fees: number[][]; lot_decimals: number }>;
  frames: Map<string, KrakenFrame[]>;
} {
  const http = readV1('KRAKEN.0').find((l) => l.t === 'http');
  if (http === undefined || http.t !== 'http') throw new Error('KRAKEN.0 holds no AssetPairs');
  const pairs = (
    JSON.parse(http.data) as {
      result: Record<string, { wsname: string; fees: number[][]; lot_decimals: number }>;
    }
  ).result;
  const frames = new Map<string, KrakenFrame[]>();
  for (const l of readV1('KRAKEN.ws.50.0')) {
    if (l.t !== 'recv' || !l.data.startsWith('[')) continue;
    const m = JSON.parse(l.data) as unknown[];
    if (m.at(-2) !== 'book-1000') continue;
    const pair = m.at(-1) as string;
    const bodies = m.slice(1, -2) as V1Body[];
    const frame: KrakenFrame = {
      snapshot: bodies[0]!.as !== undefined || bodies[0]!.bs !== undefined,
      asks: bodies.flatMap((b) => b.as ?? b.a ?? []),
      bids: bodies.flatMap((b) => b.bs ?? b.b ?? []),
      checksum:
        bodies.map((b) => b.c).find((c) => c !== undefined) !== undefined
          ? Number(bodies.map((b) => b.c).find((c) => c !== undefined))
          : undefined,
    };
    let list = frames.get(pair);
    if (list === undefined) frames.set(pair, (list = []));
    list.push(frame);
  }
  return { pairs, frames };
}

/** Kraken v2 names XBT as BTC. */
export const v2Symbol = (v1Pair: string): string => v1Pair.replace(/\bXBT\b/g, 'BTC');

/** The v2 `book` frame carrying a captured v1 frame (ccxt 4.5 speaks only v2 for public books). */
export function toV2(pair: string, f: KrakenFrame): string {
  const levels = (ls: V1Level[]) => ls.map(([p, q]) => ({ price: Number(p), qty: Number(q) }));
  const ts = Math.max(0, ...[...f.asks, ...f.bids].map((l) => Number(l[2])));
  const data = {
    symbol: v2Symbol(pair),
    bids: levels(f.bids),
    asks: levels(f.asks),
    // Kraken's CRC32 of the top 10, as recorded (v1 and v2 compute it alike); absent when the frame had none.
    ...(f.checksum === undefined ? {} : { checksum: f.checksum }),
    timestamp: new Date(ts * 1000).toISOString(),
  };
  return JSON.stringify({ channel: 'book', type: f.snapshot ? 'snapshot' : 'update', data: [data] });
}

/**
 * Kraken spot websocket v2: `{method:"subscribe",params:{channel:"book",symbol,depth},req_id}` gets
 * a success ack per symbol, then that pair's captured frames translated from v1 to v2 (the
 * capture predates v2; levels, order and values are kept, only the envelope changes).
 */
export function startKrakenMock(
  frames: ReadonlyMap<string, KrakenFrame[]>,
  paceMs = 1,
  rest?: (url: URL) => RestReply | undefined,
): Promise<MockVenue> {
  return startMockVenue({
    rest,
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as {
        method?: string;
        params?: { channel?: string; symbol?: string[]; depth?: number };
        req_id?: number;
      };
      if (msg.method === 'ping')
        return socket.send(
          JSON.stringify({
            method: 'pong',
            req_id: msg.req_id,
            time_in: '2021-04-17T16:48:53Z',
            time_out: '2021-04-17T16:48:53Z',
          }),
        );
      if (msg.method !== 'subscribe' || msg.params?.channel !== 'book') return;
      const out: string[] = [];
      for (const symbol of msg.params.symbol ?? []) {
        socket.send(
          JSON.stringify({
            method: 'subscribe',
            req_id: msg.req_id,
            result: { channel: 'book', depth: msg.params.depth ?? 10, snapshot: true, symbol },
            success: true,
            time_in: '2021-04-17T16:48:53Z',
            time_out: '2021-04-17T16:48:53Z',
          }),
        );
        const pair = [...frames.keys()].find((p) => v2Symbol(p) === symbol);
        if (pair !== undefined) out.push(...frames.get(pair)!.map((f) => toV2(pair, f)));
      }
      void sendPaced(socket, out, paceMs);
    },
  });
}

/**
 * Independent fold of one pair's v1 frames. Levels past the subscribed depth are not maintained
 * (Kraken's rule); ccxt takes that depth from the snapshot's ask count, so the fold keeps as many.
 */
export function foldKraken(frames: readonly KrakenFrame[]): RawBook {
  const book = new RawBook();
  let depth = 1000;
  for (const f of frames) {
    if (f.snapshot) {
      book.clear();
      depth = f.asks.length;
    }
    for (const [p, q] of f.bids) book.set('bids', Number(p), Number(q));
    for (const [p, q] of f.asks) book.set('asks', Number(p), Number(q));
    book.truncate(depth);
  }
  return book;
}
