import type { WebSocket } from 'ws';
import { readJsonl } from './captures';
import { RawBook } from './memory-sink';
import { sendPaced, startMockVenue, type MockVenue } from './mock-server';

/** Bybit's 2026 capture: spot `orderbook.200.<SYM>` frames by topic. Spot is conn BYBIT.ws.3 (linear shares topic names). */
export function readBybitSpotBooks(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of readJsonl('BYBIT.jsonl.gz')) {
    if (r.conn !== 'BYBIT.ws.3' || r.t !== 'recv') continue;
    const topic = (JSON.parse(r.data) as { topic?: string }).topic;
    if (topic?.startsWith('orderbook.') !== true) continue;
    let list = out.get(topic);
    if (list === undefined) out.set(topic, (list = []));
    list.push(r.data);
  }
  return out;
}

/**
 * Bybit v5 public spot socket: `{op:"subscribe",req_id,args:[topics]}` gets the venue's ack, then
 * each topic's captured frames (snapshot first); `{op:"ping"}` gets a pong.
 */
export function startBybitMock(framesByTopic: ReadonlyMap<string, string[]>, paceMs = 2): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { op?: string; req_id?: string; args?: string[] };
      if (msg.op === 'ping')
        return socket.send(
          JSON.stringify({ success: true, ret_msg: 'pong', conn_id: 'mock', req_id: msg.req_id, op: 'ping' }),
        );
      if (msg.op !== 'subscribe') return;
      socket.send(
        JSON.stringify({
          success: true,
          ret_msg: 'subscribe',
          conn_id: 'mock',
          req_id: msg.req_id,
          op: 'subscribe',
        }),
      );
      // Interleave the topics' frames the way a shared connection would carry them.
      const lists = (msg.args ?? []).map((t) => framesByTopic.get(t) ?? []);
      const frames: string[] = [];
      for (let i = 0; lists.some((l) => i < l.length); i++)
        for (const l of lists) if (i < l.length) frames.push(l[i]!);
      void sendPaced(socket, frames, paceMs);
    },
  });
}

/** Independent fold of bybit orderbook frames: snapshot replaces, delta sets (size 0 deletes). */
export function foldBybit(frames: readonly string[]): RawBook {
  const book = new RawBook();
  for (const f of frames) {
    const m = JSON.parse(f) as { type: string; data: { b: string[][]; a: string[][] } };
    if (m.type === 'snapshot') book.clear();
    for (const [p, q] of m.data.b) book.set('bids', Number(p), Number(q));
    for (const [p, q] of m.data.a) book.set('asks', Number(p), Number(q));
  }
  return book;
}
