import { loadConfigOrExit, type StartConfig } from '@app/config';
import { logSink, type RecordSink } from '@app/log';
import { createLogger, quietRepeats, type ServiceLogger } from '@app/logging';
import { Clock, PinnedClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi } from './compose';
import { playRecording } from './demo/play-recording';
import { observe } from './observe';
import { Ingestor, ingestorOptions, loadVenuesConfig, watchOrderBookIds } from '@app/venues';

/**
 * `npm start`: ingestor (live venues through ccxt) or the replay feeder (--replay), plus the API,
 * in one process on the configured log (embedded by default).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('start');
  const logger = createLogger(config.console);
  const host = await openFeed(config.log, logger.child({ component: 'BookFeed' }));
  const stops: (() => Promise<void>)[] = [];
  let clock: Clock;
  if (config.replay === null) {
    clock = config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs);
    stops.push(startLive(config, logSink(host.log), logger));
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
  onShutdown(async () => {
    for (const stop of stops.reverse()) await stop();
    await closeHost(host);
  });
}

/** Live venues: the ingestor writes into the same log the API folds. */
function startLive(config: StartConfig, sink: RecordSink, logger: ServiceLogger): () => Promise<void> {
  const venuesConfig =
    config.venuesConfig === null ? null : loadVenuesConfig(config.venuesConfig, watchOrderBookIds());
  // A venue that stays down retries for weeks: one line per failure kind per summary period.
  const quiet = quietRepeats(
    logger.child({ component: 'Ingestor' }),
    Math.max(60_000, config.console.summaryEveryMs),
  );
  const ingestor = new Ingestor(ingestorOptions({ sink, venuesConfig, logger: quiet }));
  ingestor.start();
  return () => ingestor.stop();
}

function fatal(e: unknown): never {
  process.stderr.write(`start failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}

main().catch(fatal);
