import type { WebSocket } from 'ws';
import { readV1 } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface L2Level {
  num: number;
  px: number;
  qty: number;
}

interface L2Frame {
  seqnum: number;
  event: 'subscribed' | 'snapshot' | 'updated';
  channel: string;
  symbol: string;
  bids?: L2Level[];
  asks?: L2Level[];
}

/** Blockchain.com Exchange's 2021 capture: the `l2` channel's frames (subscribed, snapshot, updated) by symbol. */
export function readBlockchainL2(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const l of readV1('BLOCKCHAIN.ws.1.0')) {
    if (l.t !== 'recv') continue;
    const m = JSON.parse(l.data) as Partial<L2Frame>;
    if (m.channel !== 'l2' || m.symbol === undefined) continue;
    const list = out.get(m.symbol) ?? [];
    list.push(l.data);
    out.set(m.symbol, list);
  }
  return out;
}

/**
 * Blockchain.com's mercury gateway: `{action:"subscribe",channel:"l2",symbol}` gets that symbol's
 * captured frames in order (its `subscribed` answer, the snapshot, then the updates).
 */
export function startBlockchainMock(frames: ReadonlyMap<string, string[]>): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as { action?: string; channel?: string; symbol?: string };
      if (msg.action !== 'subscribe' || msg.channel !== 'l2' || msg.symbol === undefined) return;
      void sendBatched(socket, frames.get(msg.symbol) ?? [], 1);
    },
  });
}

/**
 * Independent fold of one symbol's l2 frames: the snapshot replaces; in an update a level with
 * `num` 0 (no orders left) or `qty` 0 is gone, any other carries the level's new total.
 */
export function foldBlockchain(frames: readonly string[]): RawBook {
  const book = new RawBook();
  for (const text of frames) {
    const m = JSON.parse(text) as L2Frame;
    if (m.event === 'subscribed') continue;
    if (m.event === 'snapshot') book.clear();
    for (const l of m.bids ?? []) book.set('bids', l.px, l.num === 0 ? 0 : l.qty);
    for (const l of m.asks ?? []) book.set('asks', l.px, l.num === 0 ? 0 : l.qty);
  }
  return book;
}
