import type { BookRecord, EventRecord, Level } from '@app/events';
import { seeded } from '@app/synth';

const T = 1_786_000_000_000;

const level = (rand: () => number, mid: number): Level => [
  Math.round((mid + (rand() - 0.5) * 10) * 100) / 100,
  Math.floor(rand() * 4),
];

/**
 * A log whose clocks misbehave (every record valid: a log reader would skip an invalid one): each book's records jitter back and forth in time, a few deltas
 * skip a sequence, fees change, venue records come with and without reconnectCount, and an
 * older copy of part of the stream is appended at the end.
 */
export function messyLog(seed: number, n = 600): EventRecord[] {
  const rand = seeded(seed);
  const out: EventRecord[] = [];
  const books = ['a|BTC/USDT', 'a|ETH/USDT', 'b|BTC/USDT', 'c|SOL/USDT', 'd|SOL/USDT'];
  const seq = new Map<string, number>();
  // A book whose log starts with deltas stamped mid-run: at those instants it is back to awaiting
  // its first snapshot, although snapshots stamped earlier come after them in the log.
  for (let k = 0; k < 3; k++)
    out.push({
      v: 1,
      type: 'book',
      exchangeId: 'd',
      symbol: 'SOL/USDT',
      snapshot: false,
      bids: [[1, 1]],
      asks: [[2, 1]],
      sequence: k + 1,
      exchangeTimestamp: null,
      receivedAt: T + 3_000 + k * 500,
    });
  for (let i = 0; i < n; i++) {
    const at = T + i * 10 + Math.floor((rand() - 0.3) * 400);
    const pick = rand();
    if (pick < 0.04) {
      const ex = ['a', 'b', 'c', 'd'][Math.floor(rand() * 4)]!;
      out.push({
        v: 1,
        type: 'venue',
        exchangeId: ex,
        certified: rand() < 0.8,
        connected: rand() < 0.7,
        lastError: rand() < 0.5 ? null : `e${i}`,
        receivedAt: at,
        ...(rand() < 0.5 ? { reconnectCount: i } : {}),
      });
      continue;
    }
    const key = books[Math.floor(rand() * books.length)]!;
    const [ex, symbol] = key.split('|') as [string, string];
    if (pick < 0.08) {
      out.push({
        v: 1,
        type: 'market',
        exchangeId: ex,
        symbol,
        base: symbol.split('/')[0]!,
        quote: 'USDT',
        takerFeeRate: Math.floor(rand() * 5) / 1000,
        receivedAt: at,
      });
      continue;
    }
    const snapshot = !seq.has(key) || rand() < 0.12;
    const s = snapshot ? Math.floor(rand() * 1000) : seq.get(key)! + (rand() < 0.05 ? 2 : 1);
    seq.set(key, s);
    const top = Math.round(rand() * 500) / 100;
    const book: BookRecord = {
      v: 1,
      type: 'book',
      exchangeId: ex,
      symbol,
      snapshot,
      // A snapshot: four distinct levels per side, best first; a delta: one level (amount 0 removes).
      bids: snapshot ? [0, 1, 2, 3].map((k): Level => [95 - top - k, k + 1]) : [level(rand, 95)],
      asks: snapshot ? [0, 1, 2, 3].map((k): Level => [105 + top + k, k + 1]) : [level(rand, 105)],
      sequence: s,
      exchangeTimestamp: null,
      receivedAt: at,
    };
    out.push(book);
  }
  // An older recording of part of it, fed in after (stamped 3 s earlier).
  for (const r of out.slice(Math.floor(n / 6), Math.floor(n / 2)))
    out.push({ ...r, receivedAt: r.receivedAt - 3_000 });
  return out;
}
