import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface V1Books {
  action: 'snapshot' | 'update';
  arg: { instType: string; channel: 'books'; instId: string };
  data: { asks: [string, string][]; bids: [string, string][]; checksum?: number; ts: string }[];
}

/** Bitget's 2022 capture (spot API v1, `books` channel with CRC32 checksums): frames by instId, in order. */
export function readBitgetBooks(): Map<string, V1Books[]> {
  const out = new Map<string, V1Books[]>();
  for (const l of readV1('BITGET.ws.1.0')) {
    if (l.t !== 'recv' || !l.data.includes('"channel":"books"') || !l.data.startsWith('{"action"')) continue;
    const m = JSON.parse(l.data) as V1Books;
    const list = out.get(m.arg.instId) ?? [];
    list.push(m);
    out.set(m.arg.instId, list);
  }
  return out;
}

/**
 * The frame in API v2, which ccxt speaks (translated): instType "sp" becomes "SPOT" and the
 * frame gets v2's top-level `ts`; levels and checksums are as recorded, so ccxt's checksum check
 * (top 25 levels, CRC32) runs on the recorded values.
 */
export function toV2(m: V1Books): string {
  return JSON.stringify({
    action: m.action,
    arg: { instType: 'SPOT', channel: 'books', instId: m.arg.instId },
    data: m.data,
    ts: Number(m.data[0]?.ts ?? 0),
  });
}

/**
 * Bitget public socket v2: `{op:"subscribe",args:[{instType:"SPOT",channel:"books",instId}]}`
 * gets `{event:"subscribe",arg}` per arg and that instrument's frames, translated from v1;
 * "ping" gets "pong".
 */
export function startBitgetMock(books: ReadonlyMap<string, V1Books[]>): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      if (text === 'ping') return socket.send('pong');
      const msg = JSON.parse(text) as {
        op?: string;
        args?: { instType: string; channel: string; instId: string }[];
      };
      if (msg.op !== 'subscribe') return;
      const frames: string[] = [];
      for (const arg of msg.args ?? []) {
        socket.send(JSON.stringify({ event: 'subscribe', arg }));
        if (arg.channel === 'books') frames.push(...(books.get(arg.instId) ?? []).map(toV2));
      }
      void sendBatched(socket, frames);
    },
  });
}

/** Independent fold of an instrument's v1 frames: a snapshot replaces, an update sets amounts ("0" deletes). */
export function foldBitget(frames: readonly V1Books[]): RawBook {
  const book = new RawBook();
  for (const m of frames) {
    if (m.action === 'snapshot') book.clear();
    for (const d of m.data) {
      for (const [p, q] of d.bids) book.set('bids', Number(p), Number(q));
      for (const [p, q] of d.asks) book.set('asks', Number(p), Number(q));
    }
  }
  return book;
}
