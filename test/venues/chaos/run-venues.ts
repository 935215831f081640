import { waitFor } from '@test/support';
import { ChaosVenue } from './chaos-venue';
import { IngestorProcess, type VenueView } from './ingestor-process';
import type { Speaker } from './speaker';

/** Timeouts compressed for tests (VENUES_CONFIG `defaults`): seconds instead of minutes. */
export const FAST_DEFAULTS = {
  silenceMs: 4_000,
  backoff: { initialMs: 100, maxMs: 1_000 },
  breaker: { failures: 1_000, failingMs: 3_600_000, probeMs: 1_000, maxProbeMs: 4_000 },
};

/** Local venues for `speakers` and one ingestor process watching all of them. */
export interface ChaosRun {
  readonly venues: Map<string, ChaosVenue>;
  readonly ingestor: IngestorProcess;
  close(): Promise<void>;
}

/** Start a ChaosVenue per speaker (each set up by `prepare`) and an ingestor process over them all. */
export async function startRun(
  speakers: readonly Speaker[],
  prepare: (venue: ChaosVenue) => void = () => undefined,
  defaults: Record<string, unknown> = FAST_DEFAULTS,
  updateEveryMs = 250,
  /** More VENUES_CONFIG keys per venue (checksum, silenceMs, ...). */
  entries: Record<string, Record<string, unknown>> = {},
  env: Record<string, string> = {},
): Promise<ChaosRun> {
  const venues = new Map<string, ChaosVenue>();
  for (const s of speakers) {
    const v = new ChaosVenue(s, updateEveryMs);
    prepare(v);
    venues.set(s.id, await v.start());
  }
  const config = {
    defaults,
    venues: Object.fromEntries(
      [...venues].map(([id, v]) => [id, { ccxt: v.ccxtOptions(), ...(entries[id] ?? {}) }]),
    ),
  };
  const ingestor = new IngestorProcess(config);
  const close = async (): Promise<void> => {
    await ingestor.stop();
    await Promise.all([...venues.values()].map((v) => v.close()));
  };
  try {
    await ingestor.start(env);
  } catch (e) {
    await close();
    throw e;
  }
  return { venues, ingestor, close };
}

/** Wait until every venue of `ids` has every book good (the process must stay alive meanwhile). */
export async function waitAllGood(
  run: ChaosRun,
  ids: readonly string[],
  timeoutMs: number,
  expectedBooks: (id: string) => number,
): Promise<Map<string, VenueView>> {
  let last = new Map<string, VenueView>();
  const pending = (): string[] =>
    ids.filter((id) => {
      const v = last.get(id);
      return v === undefined || v.books !== expectedBooks(id) || v.goodBooks !== v.books;
    });
  await waitFor(
    'every venue to publish good books',
    async () => {
      if (!run.ingestor.alive)
        throw new Error(`ingestor exited: ${run.ingestor.stderr.slice(-20).join('\n')}`);
      last = await run.ingestor.venues();
      return pending().length === 0;
    },
    timeoutMs,
  ).catch((e: unknown) => {
    const detail = pending()
      .map((id) => `${id}: ${JSON.stringify(last.get(id) ?? 'no metrics')}`)
      .join('\n');
    throw new Error(`${(e as Error).message}\nnot good yet:\n${detail}`);
  });
  return last;
}
