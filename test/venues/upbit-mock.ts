import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

/** One captured orderbook frame in Upbit's SIMPLE format (the recorder asked for it). */
interface SimpleOrderbook {
  ty: 'orderbook';
  cd: string;
  tms: number;
  tas: number;
  tbs: number;
  obu: { ap: number; bp: number; as: number; bs: number }[];
  st: 'SNAPSHOT' | 'REALTIME';
}

/** Upbit's 2021 capture: the `orderbook` frames (SIMPLE format, recorded as python bytes) by market code. */
export function readUpbitBooks(): Map<string, SimpleOrderbook[]> {
  const out = new Map<string, SimpleOrderbook[]>();
  for (const l of readV1('UPBIT.ws.62.0')) {
    if (l.t !== 'recv' || !l.data.startsWith("b'")) continue;
    const m = JSON.parse(l.data.slice(2, -1)) as Partial<SimpleOrderbook>;
    if (m.ty !== 'orderbook' || m.cd === undefined) continue;
    const list = out.get(m.cd) ?? [];
    list.push(m as SimpleOrderbook);
    out.set(m.cd, list);
  }
  return out;
}

/**
 * The frame in Upbit's DEFAULT format, which ccxt asks for (translated): SIMPLE's abbreviated
 * keys spelled out one for one (ty type, cd code, tms timestamp, obu orderbook_units, ap
 * ask_price...). The recorder subscribed with isOnlyRealtime, so every frame says REALTIME;
 * without that flag Upbit sends a SNAPSHOT first, so the first frame of a code is marked SNAPSHOT.
 */
export function toDefaultFormat(m: SimpleOrderbook, first: boolean): string {
  return JSON.stringify({
    type: 'orderbook',
    code: m.cd,
    timestamp: m.tms,
    total_ask_size: m.tas,
    total_bid_size: m.tbs,
    orderbook_units: m.obu.map((u) => ({ ask_price: u.ap, bid_price: u.bp, ask_size: u.as, bid_size: u.bs })),
    stream_type: first ? 'SNAPSHOT' : 'REALTIME',
  });
}

/**
 * Upbit's socket: a subscribe list `[{ticket},{type:"orderbook",codes},...]` replaces the
 * socket's subscriptions (ccxt sends every code so far each time); each code new to the socket
 * gets its frames, translated to the DEFAULT format, in order.
 */
export function startUpbitMock(frames: ReadonlyMap<string, SimpleOrderbook[]>): Promise<MockVenue> {
  const streaming = new WeakMap<WebSocket, Set<string>>();
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { type?: string; codes?: string[] }[];
      if (!Array.isArray(msg)) return;
      const mine = streaming.get(socket) ?? new Set<string>();
      streaming.set(socket, mine);
      for (const item of msg) {
        if (item.type !== 'orderbook') continue;
        for (const code of item.codes ?? []) {
          if (mine.has(code)) continue;
          mine.add(code);
          const translated = (frames.get(code) ?? []).map((m, i) => toDefaultFormat(m, i === 0));
          void sendBatched(socket, translated, 1);
        }
      }
    },
  });
}

/** Independent fold of a code's SIMPLE frames: every frame is the whole top of the book (15 units). */
export function foldUpbit(frames: readonly SimpleOrderbook[]): RawBook {
  const book = new RawBook();
  for (const m of frames) {
    book.clear();
    for (const u of m.obu) {
      book.set('asks', u.ap, u.as);
      book.set('bids', u.bp, u.bs);
    }
  }
  return book;
}
