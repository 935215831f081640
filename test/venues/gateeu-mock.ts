import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { bandOf, sendBatched, type Band } from './proof-kit';

interface Snapshot {
  id: number;
  /** Added by the mock (translated): the 2021 answer had no `current`, today's has, and ccxt requires it. */
  current?: number;
  bids: [string, string][];
  asks: [string, string][];
}

interface Update {
  result: { s: string; U: number; u: number; b: [string, string][]; a: [string, string][] };
}

/**
 * Gate.io's 2021 capture of `spot.order_book_update` (v4, 100ms) and its REST snapshots
 * (limit=100, with_id): the channel ccxt speaks for gateeu (ccxt moved gate.io's own spot books
 * to `spot.obu`). Updates by pair in arrival order.
 */
export interface GateCapture {
  readonly snapshots: ReadonlyMap<string, Snapshot>;
  readonly updates: ReadonlyMap<string, readonly string[]>;
}

export function readGateCapture(): GateCapture {
  const snapshots = new Map<string, Snapshot>();
  for (const l of readV1('GATEIO.http.0.0'))
    if (l.t === 'http')
      snapshots.set(/currency_pair=(\w+)/.exec(l.url)![1]!, {
        ...(JSON.parse(l.data) as Snapshot),
        current: Math.round(l.ts * 1000),
      });
  const updates = new Map<string, string[]>();
  for (const l of readV1('GATEIO.ws.1.0')) {
    if (l.t !== 'recv' || !l.data.includes('"channel":"spot.order_book_update","event":"update"')) continue;
    const pair = (JSON.parse(l.data) as Update).result.s;
    const list = updates.get(pair) ?? [];
    list.push(l.data);
    updates.set(pair, list);
  }
  return { snapshots, updates };
}

/** The prices the recorded 100-level snapshot covers. */
export function gateBand(capture: GateCapture, pair: string): Band {
  const s = capture.snapshots.get(pair)!;
  return bandOf(s.bids, s.asks);
}

/**
 * Gate EU spot as ccxt meets it: GET /api/v4/spot/order_book?currency_pair&limit&with_id answers
 * the captured snapshot's best `limit` levels, with `current` (its receive time) added; a `spot.order_book_update` subscribe is acked as
 * the venue does, then that pair's captured updates follow; `spot.ping` gets `spot.pong`.
 */
export function startGateMock(capture: GateCapture): Promise<MockVenue> {
  return startMockVenue({
    rest: (url) => {
      if (url.pathname !== '/api/v4/spot/order_book') return undefined;
      const snap = capture.snapshots.get(url.searchParams.get('currency_pair') ?? '');
      if (snap === undefined)
        return { status: 400, body: JSON.stringify({ label: 'INVALID_CURRENCY_PAIR' }) };
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const body = { ...snap, bids: snap.bids.slice(0, limit), asks: snap.asks.slice(0, limit) };
      return { status: 200, body: JSON.stringify(body) };
    },
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as {
        id?: number;
        time?: number;
        channel?: string;
        event?: string;
        payload?: string[];
      };
      const time = msg.time ?? 0;
      if (msg.channel === 'spot.ping')
        return socket.send(JSON.stringify({ time, channel: 'spot.pong', event: '' }));
      if (msg.channel !== 'spot.order_book_update' || msg.event !== 'subscribe') return;
      const ack = {
        time,
        id: msg.id,
        channel: msg.channel,
        event: 'subscribe',
        result: { status: 'success' },
      };
      socket.send(JSON.stringify(ack));
      void sendBatched(socket, capture.updates.get(msg.payload?.[0] ?? '') ?? [], 1);
    },
  });
}

/**
 * Independent fold: the recorded snapshot, then the updates past its id under gate's rule (the
 * first applied has U <= id+1 <= u, then each U = previous u + 1); amounts absolute, "0" deletes.
 */
export function foldGate(capture: GateCapture, pair: string): RawBook {
  const snap = capture.snapshots.get(pair)!;
  const book = new RawBook();
  for (const [p, q] of snap.bids) book.set('bids', Number(p), Number(q));
  for (const [p, q] of snap.asks) book.set('asks', Number(p), Number(q));
  let last = snap.id;
  for (const text of capture.updates.get(pair) ?? []) {
    const r = (JSON.parse(text) as Update).result;
    if (r.u <= last) continue;
    if (r.U > last + 1) throw new Error(`capture gap in ${pair} at U=${r.U}`);
    for (const [p, q] of r.b) book.set('bids', Number(p), Number(q));
    for (const [p, q] of r.a) book.set('asks', Number(p), Number(q));
    last = r.u;
  }
  return book;
}
