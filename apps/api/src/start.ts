import { loadConfigOrExit, type StartConfig } from '@app/config';
import { logSink, type RecordSink } from '@app/log';
import { Clock, PinnedClock, ReplayClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi, waitCaughtUp, type ApiHost } from './compose';
import { feedReplay } from '@app/feed';
import type { Ingestor } from '@app/venues';

/**
 * `npm start`: ingestor (live venues through ccxt) or the replay feeder (--replay), plus the API,
 * in one process on the configured log (embedded by default).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('start');
  // A VENUES_CONFIG file is checked before anything listens; without one, ccxt loads after.
  let live = config.replay === null && config.venuesConfig !== null ? await liveVenues(config) : null;
  const host = await openFeed(config.log);
  const sink = logSink(host.log);
  const stops: (() => Promise<void>)[] = [];
  let clock: Clock;
  if (config.replay === null) {
    clock = config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs);
  } else {
    const replayClock = new ReplayClock();
    clock = config.nowMs === null ? replayClock : new PinnedClock(config.nowMs);
    const abort = new AbortController();
    const replay = feedReplay({
      path: config.replay.path,
      speed: config.replay.speed,
      sink,
      signal: abort.signal,
      onFed: (t) => replayClock.advance(t),
      onSkip: (s) => warn('replay line skipped', { ...s }),
      // A full disk or a broker outage pauses the replay; it never takes the API down.
      onWriteError: (e, attempt) => {
        if (attempt % 10 === 0)
          warn('log write failed; the replay waits and retries', { attempt, error: e.message });
      },
      onRefused: (r, e) => warn('record refused by the log and dropped', { type: r.type, error: e.message }),
    });
    stops.push(async () => {
      abort.abort();
      await replay.catch(() => undefined);
    });
    // At max speed the recording is loaded before the server answers, so the first request sees it.
    if (config.replay.speed === 'max') await finishReplay(host, replay);
    else void finishReplay(host, replay).catch(fatal);
  }
  await serveApi(host, config.server, clock);
  onShutdown(async () => {
    for (const stop of stops) await stop();
    await closeHost(host);
  });
  if (config.replay === null) {
    // The API answers first (GET /health within a second of launch); the venues connect behind it.
    live ??= await liveVenues(config);
    const ingestor = live(sink);
    ingestor.start();
    stops.push(() => ingestor.stop());
  }
}

async function finishReplay(
  host: ApiHost,
  replay: Promise<{ records: number; skipped: number }>,
): Promise<void> {
  const summary = await replay;
  await waitCaughtUp(host);
  process.stdout.write(`${JSON.stringify({ level: 'info', message: 'replay finished', ...summary })}\n`);
}

/**
 * Live venues: an ingestor writing into the same log the API folds. @app/venues is required here,
 * not at the top: ccxt takes about half a second to load, and constructing sixty exchanges more.
 */
async function liveVenues(config: StartConfig): Promise<(sink: RecordSink) => Ingestor> {
  const venues = await import('@app/venues');
  const venuesConfig =
    config.venuesConfig === null
      ? null
      : venues.loadVenuesConfig(config.venuesConfig, venues.watchOrderBookIds());
  return (sink) =>
    new venues.Ingestor(venues.ingestorOptions({ sink, venuesConfig, bufferBytes: config.writeBufferBytes }));
}

function warn(message: string, fields: Readonly<Record<string, unknown>>): void {
  process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`);
}

function fatal(e: unknown): never {
  process.stderr.write(`start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

main().catch(fatal);
