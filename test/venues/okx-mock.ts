import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { sendPaced, startMockVenue, type MockVenue } from './mock-server';

/** OKX's 2022 capture: the spot instrument and the `books` frames of one instrument, in order. */
export function readOkxBooks(instId: string): { instrument: Record<string, string>; frames: string[] } {
  const lines = readV1('OKX.0');
  let instrument: Record<string, string> | undefined;
  for (const l of lines) {
    if (l.t !== 'http' || !l.url.includes('instType=SPOT')) continue;
    instrument = (JSON.parse(l.data) as { data: Record<string, string>[] }).data.find(
      (i) => i.instId === instId,
    );
  }
  if (instrument === undefined) throw new Error(`OKX.0 does not list ${instId}`);
  const frames = readV1('OKX.ws.1.0').flatMap((l) => {
    if (l.t !== 'recv') return [];
    const m = JSON.parse(l.data) as { arg?: { channel?: string; instId?: string }; action?: string };
    return m.arg?.channel === 'books' && m.arg.instId === instId && m.action !== undefined ? [l.data] : [];
  });
  return { instrument, frames };
}

/**
 * OKX v5 public socket: `{op:"subscribe",args:[{channel,instId}]}` gets `{event:"subscribe",arg}`
 * per arg, then that instrument's captured `books` frames (snapshot first); "ping" gets "pong".
 */
export async function startOkxMock(
  framesByInst: ReadonlyMap<string, string[]>,
  paceMs = 2,
): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      if (text === 'ping') return socket.send('pong');
      const msg = JSON.parse(text) as { op?: string; args?: { channel: string; instId: string }[] };
      if (msg.op !== 'subscribe') return;
      const frames: string[] = [];
      for (const arg of msg.args ?? []) {
        socket.send(JSON.stringify({ event: 'subscribe', arg, connId: 'mock' }));
        if (arg.channel === 'books') frames.push(...(framesByInst.get(arg.instId) ?? []));
      }
      void sendPaced(socket, frames, paceMs);
    },
  });
}

/** Independent fold of OKX `books` frames: snapshot replaces, update sets (size 0 deletes), 400-level channel. */
export function foldOkx(frames: readonly string[]): RawBook {
  const book = new RawBook();
  for (const f of frames) {
    const m = JSON.parse(f) as { action: string; data: { bids: string[][]; asks: string[][] }[] };
    if (m.action === 'snapshot') book.clear();
    for (const d of m.data) {
      for (const [p, q] of d.bids) book.set('bids', Number(p), Number(q));
      for (const [p, q] of d.asks) book.set('asks', Number(p), Number(q));
    }
    book.truncate(400);
  }
  return book;
}
