import * as ccxt from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_VENUES, ruleOf } from '@app/venues';
import { SPEAKERS } from './speakers';
import { waitFor } from '@test/support';
import type { VenueView } from './ingestor-process';
import { startRun, waitAllGood, type ChaosRun } from './run-venues';

let run: ChaosRun | null = null;
afterEach(async () => {
  await run?.close();
  run = null;
});

/** Default venues subscribed one book per message: ccxt has no watchOrderBookForSymbols for them, or their rule says one per request. */
export function perSymbolDefaults(): string[] {
  return DEFAULT_VENUES.filter((id) => {
    const Pro = (ccxt.pro as unknown as Record<string, new () => { has: Record<string, unknown> }>)[id]!;
    return new Pro().has.watchOrderBookForSymbols !== true || ruleOf(id).perRequest === 1;
  });
}

/**
 * The offline reproduction, for every per-symbol default venue at once: each mock answers
 * the first subscription of every connection with a bids-only book while the other subscribe
 * messages still wait behind ccxt's throttle. The ingestor withholds the book and resynchronises
 * it, closing a connection with subscribes queued: before the fix ccxt's dropped send() promise
 * rejected with nobody listening ("WebSocket is not open") and the process exited 1.
 */
describe('containment: a bids-only first book while subscribe messages are queued, every per-symbol default venue', () => {
  it('the process is alive 30 s later and every venue publishes once its books are good', async () => {
    const ids = perSymbolDefaults();
    expect(ids.length).toBeGreaterThan(30);
    const speakers = ids.map((id) => SPEAKERS[id]!());
    run = await startRun(speakers, (v) => (v.fault = 'empty-first-book'));
    const started = performance.now();
    // Every venue meets the bad book: withheld (or, where ccxt checks a checksum, refused by ccxt).
    const met = (views: Map<string, VenueView>, id: string): number => {
      const e = views.get(id)?.events ?? {};
      return (e.badBooks ?? 0) + (e.checksumFailures ?? 0) + (e.gaps ?? 0);
    };
    let during = new Map<string, VenueView>();
    await waitFor(
      'every venue to meet a bad first book',
      async () => {
        if (!run!.ingestor.alive) return true;
        during = await run!.ingestor.venues();
        return ids.every((id) => met(during, id) > 0);
      },
      60_000,
    ).catch(() => undefined);
    expect(run.ingestor.alive, run.ingestor.stderr.slice(-20).join('\n')).toBe(true);
    expect(ids.filter((id) => met(during, id) === 0)).toEqual([]);
    // A few more seconds of bad first books: resubscriptions with subscribes still queued.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(run.ingestor.alive, run.ingestor.stderr.slice(-20).join('\n')).toBe(true);
    for (const v of run.venues.values()) v.fault = 'good';
    const views = await waitAllGood(
      run,
      ids,
      90_000,
      (id) => speakers.find((s) => s.id === id)!.markets.length,
    );
    const left = 30_000 - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    expect(run.ingestor.alive, run.ingestor.stderr.slice(-20).join('\n')).toBe(true);
    expect(run.ingestor.exit).toBeNull();
    for (const id of ids)
      expect(views.get(id)?.goodBooks, id).toBe(speakers.find((s) => s.id === id)!.markets.length);
    const escapes = [...views.values()].reduce((n, v) => n + (v.events.escapes ?? 0), 0);
    // The rejections that used to end the process, caught and counted.
    console.log(`per-symbol venues: ${ids.length}; escapes contained: ${escapes}`);
  }, 180_000);
});
