import { loadConfigOrExit, type IngestorConfig } from '@app/config';
import { logSink, openEventLog, type RecordSink } from '@app/log';
import { feedReplay } from '@app/feed';
import { watchOrderBookIds } from '@app/venues';
import { Ingestor } from '@app/venues';
import { ingestorOptions, stderrLogger } from '@app/venues';
import { loadVenuesConfig, VenuesConfigError } from '@app/venues';

/**
 * `npm run start:ingestor`: the ingestion side as its own process, writing into the configured
 * log (embedded under DATA_DIR, or Kafka with KAFKA_BROKERS) that `npm run start:api` folds.
 * Live venues through ccxt, or with `--replay <file-or-dir> [--speed n|max]` a recording instead.
 */
function main(): void {
  const config = loadConfigOrExit('ingestor');
  const log = openEventLog({
    kafkaBrokers: config.log.kafkaBrokers,
    dataDir: config.log.dataDir,
    topicPrefix: config.log.topicPrefix,
    clientId: 'route-ingestor',
  });
  const sink = logSink(log);
  const stop = config.replay === null ? startLive(config, sink) : startReplay(config, sink);
  const shutdown = (): void => {
    stderrLogger.info('stopping ingestor');
    stop()
      .then(() => log.close())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          stderrLogger.error('stop failed', { error: String(e) });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

function startLive(config: IngestorConfig, sink: RecordSink): () => Promise<void> {
  let venuesConfig = null;
  if (config.venuesConfig !== null) {
    try {
      venuesConfig = loadVenuesConfig(config.venuesConfig, watchOrderBookIds());
    } catch (e) {
      if (!(e instanceof VenuesConfigError)) throw e;
      process.stderr.write(`VENUES_CONFIG: ${e.message}\n`);
      process.exit(2);
    }
  }
  const ingestor = new Ingestor(ingestorOptions({ sink, venuesConfig, logger: stderrLogger }));
  ingestor.start();
  return () => ingestor.stop();
}

function startReplay(config: IngestorConfig, sink: RecordSink): () => Promise<void> {
  const replay = config.replay!;
  const abort = new AbortController();
  const done = feedReplay({
    path: replay.path,
    speed: replay.speed,
    sink,
    signal: abort.signal,
    onFed: () => undefined,
    onSkip: (s) => stderrLogger.warn('replay line skipped', { ...s }),
  }).then((summary) => stderrLogger.info('replay finished', { ...summary }));
  return async () => {
    abort.abort();
    await done.catch(() => undefined);
  };
}

try {
  main();
} catch (e: unknown) {
  process.stderr.write(`ingestor failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}
