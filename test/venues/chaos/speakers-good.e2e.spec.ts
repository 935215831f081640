import { afterEach, expect, it } from 'vitest';
import { SPEAKERS } from './speakers';
import { startRun, waitAllGood, type ChaosRun } from './run-venues';

let run: ChaosRun | null = null;
afterEach(async () => {
  await run?.close();
  run = null;
});

const only = process.env.SPEAKERS?.split(',');

it('every speaker serves good books through its real ccxt class', async () => {
  const speakers = Object.entries(SPEAKERS)
    .filter(([id]) => only === undefined || only.includes(id))
    .map(([, make]) => make());
  run = await startRun(speakers);
  const ids = speakers.map((s) => s.id);
  const views = await waitAllGood(
    run,
    ids,
    60_000,
    (id) => speakers.find((s) => s.id === id)!.markets.length,
  );
  for (const id of ids) expect(views.get(id)?.state).toBe('connected');
}, 120_000);
