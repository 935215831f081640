import { loadConfigOrExit } from '@app/config';
import { PinnedClock, WallClock } from './clock';
import { closeHost, onShutdown, openFeed, serveApi } from './compose';

/** The API process: folds the event log written by an ingestor (or a replay) and serves it. */
async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const host = await openFeed(config.log);
  await serveApi(
    host,
    config.server,
    config.nowMs === null ? new WallClock() : new PinnedClock(config.nowMs),
  );
  onShutdown(() => closeHost(host));
}

main().catch((e: unknown) => {
  process.stderr.write(`api failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
