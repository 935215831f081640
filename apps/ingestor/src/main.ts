import { loadConfigOrExit, type IngestorConfig } from '@app/config';
import { LogError, logSink, openEventLog, type EventLog, type RecordSink } from '@app/log';
import { feedReplay } from '@app/feed';
import { watchOrderBookIds } from '@app/venues';
import { Ingestor } from '@app/venues';
import { ingestorOptions, stderrLogger } from '@app/venues';
import { loadVenuesConfig, VenuesConfigError } from '@app/venues';

/**
 * `npm run start:ingestor`: the ingestion side as its own process, writing into the configured
 * log (embedded under DATA_DIR, or Kafka with KAFKA_BROKERS) that `npm run start:api` folds.
 * Live venues through ccxt, or with `--replay <file-or-dir> [--speed n|max]` a recording instead.
 * It outlives the log: broker outages and a full disk pause writing, they never end the process.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('ingestor');
  const log = openEventLog({
    kafkaBrokers: config.log.kafkaBrokers,
    dataDir: config.log.dataDir,
    topicPrefix: config.log.topicPrefix,
    clientId: 'route-ingestor',
  });
  await checkLog(log);
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

/**
 * Refuse to start on a log whose metadata is wrong (an unreadable or disagreeing topic.json):
 * writing into it would put keys on the wrong partitions. A log that is only unreachable (a
 * broker down) is not a reason to stop: the writers wait for it.
 */
async function checkLog(log: EventLog): Promise<void> {
  for (const topic of ['venues', 'books'] as const) {
    try {
      await log.partitions(topic);
    } catch (e) {
      if (e instanceof LogError && e.code === 'corrupt') throw e;
      stderrLogger.warn('event log not reachable at start; writes wait for it', { topic, error: String(e) });
      return;
    }
  }
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
  const ingestor = new Ingestor(
    ingestorOptions({ sink, venuesConfig, logger: stderrLogger, bufferBytes: config.writeBufferBytes }),
  );
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
    onWriteError: (e, attempt) => {
      if (attempt % 10 === 0)
        stderrLogger.error('log write failed; the replay waits and retries', { attempt, error: e.message });
    },
    onRefused: (r, e) =>
      stderrLogger.error('record refused by the log and dropped', {
        type: r.type,
        exchangeId: r.exchangeId,
        error: e.message,
      }),
  }).then(
    (summary) => stderrLogger.info('replay finished', { ...summary }),
    // Only reading the recording can end it (a file gone); say so, and keep the process for a clean stop.
    (e: unknown) =>
      stderrLogger.error('replay stopped', { error: e instanceof Error ? e.message : String(e) }),
  );
  return async () => {
    abort.abort();
    await done;
  };
}

main().catch((e: unknown) => {
  process.stderr.write(`ingestor failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
