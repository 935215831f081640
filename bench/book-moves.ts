/**
 * Top-of-book moves on BTC/USDT for the stream benches: one venue's best ask size changes, at a
 * steady rate, so every subscriber of a BTC/USDT route has a new state to be pushed.
 */
import type { BookRecord, EventRecord } from '@app/events';
import { prng } from './market-gen';

/** A running mover: when each move was written (epoch ms), and how to stop it. */
export interface BookMoves {
  readonly times: number[];
  /** Settles when the last move of `seconds` was written (or after stop()). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** Write `perSec` moves a second (for `seconds`, or until stopped) through `write`. */
export function moveBooks(
  snapshots: readonly EventRecord[],
  write: (records: EventRecord[]) => Promise<void>,
  perSec: number,
  seconds = Infinity,
): BookMoves {
  const books = snapshots.filter((r): r is BookRecord => r.type === 'book' && r.symbol === 'BTC/USDT');
  const seq = new Map(books.map((b) => [b.exchangeId, b.sequence]));
  const rand = prng(7);
  const times: number[] = [];
  let stopped = false;
  const run = (async () => {
    const startedAt = performance.now();
    for (let k = 0; !stopped && k < perSec * seconds; k++) {
      const b = books[Math.floor(rand() * books.length)]!;
      const next = seq.get(b.exchangeId)! + 1;
      seq.set(b.exchangeId, next);
      const top = b.asks[0]!;
      times.push(Date.now());
      await write([
        {
          ...b,
          snapshot: false,
          bids: [],
          asks: [[top[0], +(top[1] * (0.5 + rand())).toPrecision(8)]],
          sequence: next,
          receivedAt: Date.now(),
        },
      ]);
      const due = startedAt + ((k + 1) * 1000) / perSec;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
  })();
  return {
    times,
    done: run,
    stop: async () => {
      stopped = true;
      await run;
    },
  };
}
