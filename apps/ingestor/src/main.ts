import { loadConfigOrExit, type IngestorConfig } from '@app/config';
import { logSink, openEventLog, type EventLog, type RecordSink } from '@app/log';
import { createLogger, quietRepeats, type ServiceLogger } from '@app/logging';
import { feedReplay, newestReceivedAt } from '@app/feed';
import { watchOrderBookIds } from '@app/venues';
import { Ingestor } from '@app/venues';
import { ingestorOptions } from '@app/venues';
import { loadVenuesConfig, VenuesConfigError } from '@app/venues';
import { VenueTally } from './venue-tally';

/** The first summary comes this soon after start (venues have had time to connect or fail). */
const FIRST_SUMMARY_MS = 10_000;

/**
 * `npm run start:ingestor`: the ingestion side as its own process, writing into the configured
 * log (embedded under DATA_DIR, or Kafka with KAFKA_BROKERS) that `npm run start:api` folds.
 * Live venues through ccxt, or with `--replay <file-or-dir> [--speed n|max] [--loop]` a recording.
 */
function main(): void {
  const config = loadConfigOrExit('ingestor');
  const logger = createLogger(config.console);
  const log = openEventLog({
    kafkaBrokers: config.log.kafkaBrokers,
    dataDir: config.log.dataDir,
    topicPrefix: config.log.topicPrefix,
    clientId: 'route-ingestor',
  });
  const sink = logSink(log);
  const stop = config.replay === null ? startLive(config, sink, logger) : startReplay(config, log, logger);
  const shutdown = (): void => {
    logger.info('stopping ingestor');
    stop()
      .then(() => log.close())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          logger.error('stop failed', { error: String(e) });
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

function startLive(config: IngestorConfig, sink: RecordSink, logger: ServiceLogger): () => Promise<void> {
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
  const tally = new VenueTally();
  const every = config.console.summaryEveryMs;
  // A venue that stays down retries for weeks: one line per failure kind per summary period.
  const quiet = quietRepeats(logger.child({ component: 'Ingestor' }), Math.max(60_000, every));
  const ingestor = new Ingestor(ingestorOptions({ sink: tally.tap(sink), venuesConfig, logger: quiet }));
  ingestor.start();
  const timers: NodeJS.Timeout[] = [];
  if (every > 0) {
    const summarize = (): void => {
      const s = tally.summary(Date.now());
      // As the API's summary: a warning while any venue is failing.
      if (s.fields.failing === undefined) logger.info(s.message, s.fields);
      else logger.warn(s.message, s.fields);
    };
    timers.push(
      setTimeout(
        () => {
          summarize();
          timers.push(setInterval(summarize, every));
        },
        Math.min(FIRST_SUMMARY_MS, every),
      ),
    );
  }
  return async () => {
    for (const t of timers) clearTimeout(t);
    await ingestor.stop();
  };
}

function startReplay(config: IngestorConfig, log: EventLog, logger: ServiceLogger): () => Promise<void> {
  const replay = config.replay!;
  const abort = new AbortController();
  let lastPass = -1;
  // A looping replay continues after the newest record already in the log (time keeps moving).
  const done = (replay.loop ? newestReceivedAt(log) : Promise.resolve(null))
    .then((after) =>
      feedReplay({
        path: replay.path,
        speed: replay.speed,
        loop: replay.loop,
        after,
        sink: logSink(log),
        signal: abort.signal,
        onFed: () => undefined,
        onSkip: (s) => logger.warn('replay line skipped', { ...s }),
        // A looping replay says when each pass begins (the API's demo also says it every 30 s).
        onProgress: (p) => {
          if (p.loop === lastPass) return;
          lastPass = p.loop;
          logger.info(`replaying: pass ${p.loop + 1}`, { pass: p.loop + 1, servedAt: p.servedAt });
        },
      }),
    )
    .then((summary) => logger.info('replay finished', { ...summary }));
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
