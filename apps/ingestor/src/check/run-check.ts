import { defaultOf } from '@app/config';
import { Ingestor, ingestorOptions, type VenuesConfig } from '@app/venues';
import { checkReport, type CheckReport } from './check-report';
import { VenueProbe } from './venue-probe';

/** What a check runs: the venues as the ingestor would (VENUES_CONFIG or the defaults), a subset, a window. */
export interface CheckInput {
  readonly venuesConfig: VenuesConfig | null;
  /** Exchange ids to check; null = every venue the ingestor would run. */
  readonly only: ReadonlySet<string> | null;
  readonly seconds: number;
  /** Ends the window early (Ctrl-C): the report covers the time watched. */
  readonly signal?: AbortSignal;
  readonly now?: () => number;
}

/** A finished window: the report, and the stop of the ingestor it ran (call once the report is out). */
export interface CheckRun {
  readonly report: CheckReport;
  readonly stop: () => Promise<void>;
}

/**
 * Run the Ingestor itself (same ccxt classes, VENUES_CONFIG, per-venue rules and recovery) into a
 * probe instead of the event log for `seconds`, then report what each venue did. What escapes
 * a venue's handling meets the ingestor's own last line of defence, as in a deployment.
 */
export async function runCheck(input: CheckInput): Promise<CheckRun> {
  const now = input.now ?? Date.now;
  const startedAt = now();
  const probe = new VenueProbe(startedAt, now);
  // Nothing reaches the log: the writer's settings are the service's defaults, as a fresh ingestor's.
  const options = ingestorOptions({
    sink: probe,
    logger: probe,
    venuesConfig: input.venuesConfig,
    bufferBytes: defaultOf('WRITE_BUFFER_BYTES'),
    listingRepublishMs: defaultOf('LISTING_REPUBLISH_MS'),
  });
  const only = input.only;
  const venues = only === null ? options.venues : options.venues.filter((v) => only.has(v.exchangeId));
  const ingestor = new Ingestor({ ...options, venues });
  ingestor.start();
  await window(input.seconds * 1000, input.signal);
  const at = now();
  const seconds = Math.round((at - startedAt) / 100) / 10;
  const observed = probe.observations(
    venues.map((v) => v.exchangeId),
    at,
    ingestor.health(),
  );
  return {
    report: checkReport(observed, seconds),
    stop: () => ingestor.stop(2_000).catch(() => undefined),
  };
}

function window(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}
