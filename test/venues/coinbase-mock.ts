import type { WebSocket } from 'ws';
import { readJsonl } from './captures';
import { RawBook } from './memory-sink';
import { sendPaced, startMockVenue, type MockVenue } from './mock-server';

interface L2Event {
  type: 'snapshot' | 'update';
  product_id: string;
  updates: { side: 'bid' | 'offer'; price_level: string; new_quantity: string }[];
}

/** Coinbase Advanced Trade's 2026 capture: the `l2_data` frames, in arrival order. */
export function readCoinbaseL2(): string[] {
  return readJsonl('COINBASE.jsonl.gz')
    .filter((r) => r.t === 'recv' && r.data.includes('"channel":"l2_data"'))
    .map((r) => r.data);
}

/**
 * Coinbase Advanced Trade socket: `{type:"subscribe",product_ids,channel:"level2"}` gets a
 * `subscriptions` frame, then the captured l2_data frames of those products (snapshot first).
 */
export function startCoinbaseMock(frames: readonly string[], paceMs = 1): Promise<MockVenue> {
  let seq = 0;
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { type?: string; product_ids?: string[]; channel?: string };
      if (msg.type !== 'subscribe' || msg.channel !== 'level2') return;
      const ids = new Set(msg.product_ids ?? []);
      const subscriptions = {
        channel: 'subscriptions',
        timestamp: '2026-08-09T21:05:48.629627857Z',
        sequence_num: seq++,
        events: [{ subscriptions: { level2: [...ids] } }],
      };
      socket.send(JSON.stringify(subscriptions));
      // sequence_num counts the messages of a connection: the capture's connection also carried
      // other channels, so the frames this connection gets are numbered again, contiguously.
      const mine = frames
        .filter((f) => (JSON.parse(f) as { events: L2Event[] }).events.every((e) => ids.has(e.product_id)))
        .map((f) => JSON.stringify({ ...(JSON.parse(f) as object), sequence_num: seq++ }));
      void sendPaced(socket, mine, paceMs);
    },
  });
}

/** Independent fold of l2_data frames for one product: snapshot replaces; quantities are absolute, "0" deletes. */
export function foldCoinbase(frames: readonly string[], productId: string): RawBook {
  const book = new RawBook();
  for (const f of frames) {
    for (const e of (JSON.parse(f) as { events: L2Event[] }).events) {
      if (e.product_id !== productId) continue;
      if (e.type === 'snapshot') book.clear();
      for (const u of e.updates)
        book.set(u.side === 'bid' ? 'bids' : 'asks', Number(u.price_level), Number(u.new_quantity));
    }
  }
  return book;
}
