import type { WebSocket } from 'ws';
import { readJsonl } from './captures';
import { RawBook } from './memory-sink';
import { startMockVenue, type MockVenue } from './mock-server';
import { sendBatched } from './proof-kit';

interface L2Updates {
  type: 'l2_updates';
  symbol: string;
  changes: ['buy' | 'sell', string, string][];
  trades?: unknown[];
  auction_events?: unknown[];
}

/**
 * Gemini's 2026 capture (market data v2, `l2` subscription): the `l2_updates` frames by symbol
 * (BTCUSD...). The first frame of a symbol carries the whole book (and `trades`,
 * `auction_events`); the rest are changes. Gemini has no sequence number: order is the sequence.
 */
export function readGeminiL2(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of readJsonl('GEMINI.jsonl.gz')) {
    if (r.t !== 'recv' || !r.data.includes('"type":"l2_updates"')) continue;
    const m = JSON.parse(r.data) as L2Updates;
    const list = out.get(m.symbol) ?? [];
    list.push(r.data);
    out.set(m.symbol, list);
  }
  return out;
}

/**
 * Gemini market data v2: `{type:"subscribe",subscriptions:[{name:"l2",symbols}]}` gets each
 * symbol's captured l2_updates frames (the full book first), as the venue sends them.
 */
export function startGeminiMock(frames: ReadonlyMap<string, string[]>): Promise<MockVenue> {
  return startMockVenue({
    onMessage: (socket: WebSocket, text: string) => {
      const msg = JSON.parse(text) as {
        type?: string;
        subscriptions?: { name: string; symbols: string[] }[];
      };
      if (msg.type !== 'subscribe') return;
      for (const sub of msg.subscriptions ?? [])
        if (sub.name === 'l2') for (const s of sub.symbols) void sendBatched(socket, frames.get(s) ?? []);
    },
  });
}

/** Independent fold of one symbol's l2_updates: [side, price, quantity] absolute, "0" removes; buy = bids. */
export function foldGemini(frames: readonly string[]): RawBook {
  const book = new RawBook();
  for (const text of frames) {
    const m = JSON.parse(text) as L2Updates;
    if (m.auction_events !== undefined && m.trades !== undefined) book.clear();
    for (const [side, p, q] of m.changes) book.set(side === 'buy' ? 'bids' : 'asks', Number(p), Number(q));
  }
  return book;
}
