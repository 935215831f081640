import { loadConfigOrExit, type StartConfig } from '@app/config';
import { logSink, type RecordSink } from '@app/log';
import { Clock, PinnedClock, ReplayClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi, waitCaughtUp, type ApiHost } from './compose';
import { feedReplay } from '@app/feed';
import { Ingestor, ingestorOptions, loadVenuesConfig, watchOrderBookIds } from '@app/venues';

/**
 * `npm start`: ingestor (live venues through ccxt) or the replay feeder (--replay), plus the API,
 * in one process on the configured log (embedded by default).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('start');
  const host = await openFeed(config.log);
  const sink = logSink(host.log);
  const stops: (() => Promise<void>)[] = [];
  let clock: Clock;
  if (config.replay === null) {
    clock = config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs);
    stops.push(startLive(config, sink));
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
}

async function finishReplay(
  host: ApiHost,
  replay: Promise<{ records: number; skipped: number }>,
): Promise<void> {
  const summary = await replay;
  await waitCaughtUp(host);
  process.stdout.write(`${JSON.stringify({ level: 'info', message: 'replay finished', ...summary })}\n`);
}

/** Live venues: the ingestor writes into the same log the API folds. */
function startLive(config: StartConfig, sink: RecordSink): () => Promise<void> {
  const venuesConfig =
    config.venuesConfig === null ? null : loadVenuesConfig(config.venuesConfig, watchOrderBookIds());
  const ingestor = new Ingestor(
    ingestorOptions({ sink, venuesConfig, bufferBytes: config.writeBufferBytes }),
  );
  ingestor.start();
  return () => ingestor.stop();
}

function warn(message: string, fields: Readonly<Record<string, unknown>>): void {
  process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`);
}

function fatal(e: unknown): never {
  process.stderr.write(`start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

main().catch(fatal);
