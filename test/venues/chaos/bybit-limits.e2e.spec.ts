import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@test/support';
import { ChaosVenue } from './chaos-venue';
import { startRun, waitAllGood, type ChaosRun } from './run-venues';
import { BYBIT_SPOT_ARGS_PER_REQUEST, bybitLike } from './speakers/batch-d';

let run: ChaosRun | null = null;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await run?.close();
  run = null;
  for (const c of closers.splice(0)) await c();
});

/** Subscribe `topics` in one request straight to the mock and return its answer. */
async function subscribeOnce(
  venue: ChaosVenue,
  topics: string[],
): Promise<{ success: boolean; ret_msg: string }> {
  const ws = new WebSocket(`${venue.ws}/v5/public/spot`);
  const answer = new Promise<{ success: boolean; ret_msg: string }>((resolve) =>
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { op?: string; success: boolean; ret_msg: string };
      if (m.op === 'subscribe') resolve(m);
    }),
  );
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ op: 'subscribe', req_id: '1', args: topics }));
  const out = await answer;
  ws.close();
  return out;
}

describe('mock venues enforce the documented limits, fed full market lists', () => {
  it('the bybit mock refuses a subscribe request of more than 10 topics, as Bybit spot does', async () => {
    const venue = await new ChaosVenue(bybitLike('bybit', 21)).start();
    closers.push(() => venue.close());
    const topics = venue.speaker.markets.map((m) => `orderbook.200.${m.id}`);
    expect(await subscribeOnce(venue, topics.slice(0, 20))).toMatchObject({ success: false });
    expect(await subscribeOnce(venue, topics.slice(0, BYBIT_SPOT_ARGS_PER_REQUEST))).toMatchObject({
      success: true,
    });
  });

  it('bybit, bybiteu and bybitid publish every book of a 21-market list (10 topics per request)', async () => {
    const speakers = (['bybit', 'bybiteu', 'bybitid'] as const).map((id) => bybitLike(id, 21));
    run = await startRun(speakers);
    const views = await waitAllGood(run, ['bybit', 'bybiteu', 'bybitid'], 60_000, () => 21);
    for (const id of ['bybit', 'bybiteu', 'bybitid']) {
      expect(views.get(id)).toMatchObject({ state: 'connected', books: 21, goodBooks: 21 });
      expect(views.get(id)!.events.failures).toBe(0);
      const venue = run.venues.get(id)!;
      const requests = venue.received
        .map((t) => JSON.parse(t) as { op?: string; args?: string[] })
        .filter((m) => m.op === 'subscribe');
      // 21 books in requests of at most 10 topics: 3 requests, none refused.
      expect(requests.map((m) => m.args!.length)).toEqual([10, 10, 1]);
    }
    await waitFor(
      'no venue to have failed',
      async () => (await run!.ingestor.venues()).get('bybit')!.events.failures === 0,
    );
  }, 120_000);
});
