import { book } from '../../support/records';
import type { SpawnedServer } from './server';

/**
 * Move alpha's BTC/USDT book (a snapshot with a new best ask size) every `everyMs` until stopped,
 * so every BTC/USDT stream has a new state to be pushed. Stamped T0, the pinned clock's instant.
 */
export function moveBooks(s: SpawnedServer, everyMs = 200): { stop(): Promise<void> } {
  let stopped = false;
  const run = (async () => {
    for (let seq = 2; !stopped; seq++) {
      await s.writeBooks([
        book(
          'alpha',
          'BTC/USDT',
          [
            [99, 1],
            [98, 1],
          ],
          [
            [100, 1 + (seq % 7) / 10],
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
    },
  };
}
