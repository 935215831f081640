import { afterEach, describe, expect, it } from 'vitest';
import { bitfinexSpeaker } from './speakers/bitfinex';
import { startRun, waitAllGood, type ChaosRun } from './run-venues';

let run: ChaosRun | null = null;
afterEach(async () => {
  await run?.close();
  run = null;
});

describe('containment: a bids-only first book while subscribe messages are queued', () => {
  it('bitfinex: the process lives on and the venue publishes once its books are good', async () => {
    const speaker = bitfinexSpeaker();
    run = await startRun([speaker], (v) => (v.fault = 'empty-first-book'));
    const venue = run.venues.get('bitfinex')!;
    await new Promise((r) => setTimeout(r, 8_000));
    expect(run.ingestor.alive).toBe(true);
    venue.fault = 'good';
    const views = await waitAllGood(run, ['bitfinex'], 30_000, () => speaker.markets.length);
    console.log(JSON.stringify([...views]), run.ingestor.stderr.slice(-10).join('\n'));
    expect(run.ingestor.alive).toBe(true);
  }, 90_000);
});
