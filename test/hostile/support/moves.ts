import { book } from '../../support/records';
import type { SpawnedServer } from './server';

/**
 * Move alpha's BTC/USDT book (a snapshot with a new best ask price, 100.0 to 100.6) every
 * `everyMs` until stopped, so every BTC/USDT stream has a new state to be pushed. Stamped T0, the
 * pinned clock's instant. stop() resolves with the last best ask written.
 */
export function moveBooks(s: SpawnedServer, everyMs = 200): { stop(): Promise<number> } {
  let last = 100;
  let stopped = false;
  const run = (async () => {
    for (let seq = 2; !stopped; seq++) {
      last = 100 + (seq % 7) / 10;
      await s.writeBooks([
        book(
          'alpha',
          'BTC/USDT',
          [
            [99, 1],
            [98, 1],
          ],
          [
            [last, 1],
            [110, 1],
          ],
          seq,
        ),
      ]);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await run;
      return last;
    },
  };
}
