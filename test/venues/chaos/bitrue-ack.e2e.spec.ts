import { afterEach, expect, it } from 'vitest';
import type { Speaker } from './speaker';
import { SPEAKERS } from './speakers';
import { obj } from './speakers/wire';
import { startRun, waitAllGood, type ChaosRun } from './run-venues';

let run: ChaosRun | null = null;
afterEach(async () => {
  await run?.close();
  run = null;
});

/**
 * Bitrue acknowledges a subscription with a frame naming the book's channel, and ccxt pro/bitrue.js
 * takes every frame with such a channel for a book: the ack becomes a book with no level. When the
 * first real book arrives in a later read (here 100 ms after the ack), that empty book was once
 * published as a bad book and its connection resynced, again at every subscription: the venue
 * never came up.
 */
it('bitrue: the subscription ack (an empty book to ccxt) is no bad book; the venue comes up', async () => {
  const base = SPEAKERS.bitrue!();
  const speaker: Speaker = {
    ...base,
    onFrame: (s, msg, text) => {
      const m = obj(msg) as { event?: string; params?: { channel?: string } };
      const channel = m.params?.channel;
      if (m.event !== 'sub' || channel === undefined) return base.onFrame(s, msg, text);
      s.send({ channel, cb_id: '', event_rep: 'subed', status: 'ok', ts: Date.now() });
      setTimeout(() => s.subscribe([channel.split('_')[1]!.toUpperCase()]), 100);
    },
  };
  run = await startRun([speaker]);
  const views = await waitAllGood(run, ['bitrue'], 30_000, () => speaker.markets.length);
  expect(views.get('bitrue')!.events.badBooks).toBe(0);
  expect(views.get('bitrue')!.events.connectionResyncs).toBe(0);
}, 60_000);
