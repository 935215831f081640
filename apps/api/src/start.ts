import { loadConfigOrExit, type StartConfig } from '@app/config';
import { createLogger, venueFailures, type ServiceLogger } from '@app/telemetry';
import { Clock, PinnedClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi } from './compose';
import { playRecording } from './demo/play-recording';
import { IngestThread } from './ingest/ingest-thread';
import { observe } from './observe';

/**
 * `npm start`: ingestor (live venues through ccxt, on a thread of its own) or the replay feeder
 * (--replay), plus the API, in one process on the configured log (embedded by default).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('start');
  const logger = createLogger(config.console);
  // A VENUES_CONFIG file is checked (on the ingestor thread) before anything listens; without one,
  // that thread starts after.
  let live = config.replay === null && config.venuesConfig !== null ? await liveVenues(config, logger) : null;
  // A recording's receivedAt are the recording's, not today's: only the size bound applies to it.
  const logConfig =
    config.replay === null
      ? config.log
      : { ...config.log, retention: { ...config.log.retention, maxAgeMs: null } };
  const host = await openFeed(logConfig, logger.child({ component: 'BookFeed' }));
  const stops: (() => Promise<void>)[] = [];
  let clock: Clock;
  if (config.replay === null) {
    clock = config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs);
  } else {
    const playing = await playRecording(host, config.replay, logger);
    clock = config.nowMs === null ? playing.clock : new PinnedClock(config.nowMs);
    stops.push(() => playing.stop());
    // At max speed the recording is loaded before the server answers, so the first request sees it.
    if (config.replay.speed === 'max') await playing.finished;
    else playing.finished.catch(fatal);
  }
  const server = await serveApi(host, config.server, clock, logger);
  stops.push(await observe(server, config, logger));
  onShutdown(
    async () => {
      for (const stop of stops.reverse()) await stop();
      await closeHost(host);
    },
    { deadlineMs: config.shutdownTimeoutMs, logger, pending: () => server.pending() },
  );
  if (config.replay === null) {
    // The API answers first (GET /health within a second of launch); the venues connect behind it.
    const ingestor = (live ??= await liveVenues(config, logger));
    ingestor.start();
    // The venues' states and counters beside the API's metrics (one /metrics for npm start).
    ingestor.register(server.metrics.registry);
    stops.unshift(() => ingestor.stop());
  }
}

/**
 * Live venues: the ingestor on a thread of its own, writing into the log the API folds
 * (docs/deploy.md "Processes"). ccxt loads there, never on the thread that answers requests.
 */
async function liveVenues(config: StartConfig, logger: ServiceLogger): Promise<IngestThread> {
  const quiet = venueFailures(logger, config.console.summaryEveryMs);
  const data = {
    log: config.log,
    venuesConfig: config.venuesConfig,
    bufferBytes: config.writeBufferBytes,
    listingRepublishMs: config.listingRepublishMs,
    debug: quiet.isLevelEnabled('debug'),
  };
  return IngestThread.open(data, quiet, (message) => {
    logger.error(message);
    process.exit(1);
  });
}

function fatal(e: unknown): never {
  process.stderr.write(`start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

main().catch(fatal);
