import { loadConfigOrExit } from '@app/config';
import { createLogger } from '@app/telemetry';
import { PinnedClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi } from './compose';
import { observe } from './observe';

/** The API process: folds the event log written by an ingestor (or a replay) and serves it. */
async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const logger = createLogger(config.console);
  const host = await openFeed(config.log, logger.child({ component: 'BookFeed' }));
  const server = await serveApi(
    host,
    config.server,
    config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs),
    logger,
  );
  const stopObserving = await observe(server, config, logger);
  onShutdown(
    async () => {
      await stopObserving();
      await closeHost(host);
    },
    { deadlineMs: config.shutdownTimeoutMs, logger, pending: () => server.pending() },
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`api failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
