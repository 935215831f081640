import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { bandOf, sendBatched, type Band } from './proof-kit';

interface Snapshot {
  sequence: string;
  time: number;
  bids: [string, string][];
  asks: [string, string][];
}

interface L2Update {
  data: {
    symbol: string;
    sequenceStart: number;
    sequenceEnd: number;
    changes: { asks: [string, string, string][]; bids: [string, string, string][] };
  };
}

/** KuCoin's 2021 capture: REST level-2 snapshots (full depth) and `/market/level2` updates in arrival order. */
export interface KucoinCapture {
  readonly snapshots: ReadonlyMap<string, Snapshot>;
  readonly updates: readonly { symbol: string; text: string }[];
}

export function readKucoinCapture(): KucoinCapture {
  const snapshots = new Map<string, Snapshot>();
  for (const l of readV1('KUCOIN.http.0.0')) {
    if (l.t !== 'http') continue;
    const symbol = /symbol=([\w-]+)/.exec(l.url)![1]!;
    snapshots.set(symbol, (JSON.parse(l.data) as { data: Snapshot }).data);
  }
  const updates: { symbol: string; text: string }[] = [];
  for (const l of readV1('KUCOIN.ws.1.0')) {
    if (l.t !== 'recv' || !l.data.includes('"subject":"trade.l2update"')) continue;
    updates.push({ symbol: (JSON.parse(l.data) as L2Update).data.symbol, text: l.data });
  }
  return { snapshots, updates };
}

/** How deep KuCoin's public REST snapshot is: ccxt without API keys asks level2_100. */
export const KUCOIN_PUBLIC_DEPTH = 100;

/** The public snapshot the venue answers: the captured book's best 100 levels a side. */
function publicSnapshot(s: Snapshot): Snapshot {
  return { ...s, bids: s.bids.slice(0, KUCOIN_PUBLIC_DEPTH), asks: s.asks.slice(0, KUCOIN_PUBLIC_DEPTH) };
}

/** The price band the public snapshot covers (a book synced from it is exact only inside). */
export function kucoinBand(capture: KucoinCapture, symbol: string): Band {
  const s = publicSnapshot(capture.snapshots.get(symbol)!);
  return bandOf(s.bids, s.asks);
}

/**
 * KuCoin spot as ccxt meets it without API keys: POST /api/v1/bullet-public names the socket;
 * the socket says `welcome`, acks `{type:"subscribe",topic:"/market/level2:A,B"}` and sends the
 * captured updates of those symbols in order; `ping` gets `pong`; GET
 * /api/v1/market/orderbook/level2_100 answers the captured snapshot's best 100 levels a side.
 */
export function startKucoinMock(capture: KucoinCapture): Promise<MockVenue> {
  let ws = '';
  const venue = startMockVenue({
    rest: (url) => {
      if (url.pathname === '/api/v1/bullet-public') {
        const server = { endpoint: `${ws}/endpoint`, encrypt: false, protocol: 'websocket' };
        return {
          status: 200,
          body: JSON.stringify({
            code: '200000',
            data: {
              token: 'mock',
              instanceServers: [{ ...server, pingInterval: 18000, pingTimeout: 10000 }],
            },
          }),
        };
      }
      if (url.pathname !== '/api/v1/market/orderbook/level2_100') return undefined;
      const snap = capture.snapshots.get(url.searchParams.get('symbol') ?? '');
      if (snap === undefined) return { status: 400, body: JSON.stringify({ code: '400100', msg: 'symbol' }) };
      return { status: 200, body: JSON.stringify({ code: '200000', data: publicSnapshot(snap) }) };
    },
    onConnection: (socket) => socket.send(JSON.stringify({ id: 'welcome', type: 'welcome' })),
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { id?: string; type?: string; topic?: string };
      if (msg.type === 'ping') return socket.send(JSON.stringify({ id: msg.id, type: 'pong' }));
      if (msg.type !== 'subscribe' || !msg.topic?.startsWith('/market/level2:')) return;
      socket.send(JSON.stringify({ id: msg.id, type: 'ack' }));
      const symbols = new Set(msg.topic.slice('/market/level2:'.length).split(','));
      void sendBatched(
        socket,
        capture.updates.filter((u) => symbols.has(u.symbol)).map((u) => u.text),
      );
    },
  });
  return venue.then((v) => {
    ws = v.ws;
    return v;
  });
}

/**
 * Independent fold: the full captured snapshot, then each update past its sequence (sizes are
 * absolute, "0" deletes; price "0" entries are sequence fillers). Updates must chain
 * (sequenceStart = previous sequenceEnd + 1).
 */
export function foldKucoin(capture: KucoinCapture, symbol: string): RawBook {
  const snap = capture.snapshots.get(symbol)!;
  const book = new RawBook();
  for (const [p, q] of snap.bids) book.set('bids', Number(p), Number(q));
  for (const [p, q] of snap.asks) book.set('asks', Number(p), Number(q));
  let last = Number(snap.sequence);
  let prevEnd: number | null = null;
  for (const u of capture.updates) {
    if (u.symbol !== symbol) continue;
    const d = (JSON.parse(u.text) as L2Update).data;
    if (prevEnd !== null && d.sequenceStart !== prevEnd + 1)
      throw new Error(`capture gap in ${symbol} at ${d.sequenceStart}`);
    prevEnd = d.sequenceEnd;
    if (d.sequenceEnd <= last) continue;
    for (const [p, q] of d.changes.bids) if (p !== '0') book.set('bids', Number(p), Number(q));
    for (const [p, q] of d.changes.asks) if (p !== '0') book.set('asks', Number(p), Number(q));
    last = d.sequenceEnd;
  }
  return book;
}
