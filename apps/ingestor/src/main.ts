import { loadConfigOrExit, type IngestorConfig } from '@app/config';
import {
  DEFAULT_SNAPSHOT_POLICY,
  KafkaLog,
  LogError,
  logSink,
  openEventLog,
  retentionLine,
  type EventLog,
  type RecordSink,
} from '@app/event-log';
import { createLogger, venueFailures, type ServiceLogger, startAdminServer } from '@app/telemetry';
import { retry, errorMessage } from '@app/retry';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { feedReplay, newestReceivedAt } from '@app/recordings';
import { watchOrderBookIds } from '@app/venues';
import { Ingestor } from '@app/venues';
import { ingestorOptions, registerVenueMetrics, type IngestorOptions, type VenueHealth } from '@app/venues';
import { loadVenuesConfig, VenuesConfigError } from '@app/venues';
import { VenueTally } from './venue-tally';
import { VenueShards } from './venue-shards';

/** The first summary comes this soon after start (venues have had time to connect or fail). */
const FIRST_SUMMARY_MS = 10_000;

/**
 * `npm run start:ingestor`: the ingestion side as its own process, writing into the configured
 * log (embedded under DATA_DIR, or Kafka with KAFKA_BROKERS) that `npm run start:api` folds.
 * Live venues through ccxt, or with `--replay <file-or-dir> [--speed n|max] [--loop]` a recording.
 * It outlives the log: broker outages and a full disk pause writing, they never end the process.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('ingestor');
  const logger = createLogger(config.console);
  const log = openEventLog({
    kafkaBrokers: config.log.kafkaBrokers,
    dataDir: config.log.dataDir,
    topicPrefix: config.log.topicPrefix,
    replication: config.log.replication,
    clientId: 'route-ingestor',
    // A recording's receivedAt are the recording's, not today's: only the size bound applies to it.
    retention: config.replay === null ? config.log.retention : { ...config.log.retention, maxAgeMs: null },
    onRetention: (results) => logger.info(retentionLine(results)),
  });
  const sink = logSink(log);
  await checkLog(log, logger);
  const problem = await log.snapshotRetentionProblem(DEFAULT_SNAPSHOT_POLICY.everyMs).catch(() => null);
  if (problem !== null) {
    logger.error(problem);
    process.exit(2);
  }
  let stopping = false;
  // A stop (records in hand written, the log closed) has SHUTDOWN_TIMEOUT_MS: a broker that does
  // not answer must not outlive the orchestrator's grace period (docs/deploy.md "Shutdown").
  const exit = (code: 0 | 1): void => {
    if (stopping) return;
    stopping = true;
    const startedAt = performance.now();
    const deadline = setTimeout(() => {
      logger.error('stop deadline passed: exiting with records unwritten', {
        deadlineMs: config.shutdownTimeoutMs,
      });
      process.exit(1);
    }, config.shutdownTimeoutMs);
    stop()
      .then(() => log.close())
      .then(
        () => {
          clearTimeout(deadline);
          logger.info('stopped', { ms: Math.round(performance.now() - startedAt) });
          process.exit(code);
        },
        (e: unknown) => {
          logger.error('stop failed', { error: String(e) });
          process.exit(1);
        },
      );
  };
  // A recording fed to its end (not --loop) ends the process: the log (a Kafka client's sockets
  // and timers) is closed first, so scripts that feed a recording see it exit, 0 when every line
  // was read (1 when reading the recording failed).
  const stop =
    config.replay === null ? startLive(config, log, sink, logger) : startReplay(config, log, logger, exit);
  const shutdown = (signal: NodeJS.Signals): void => {
    logger.info('stopping ingestor', { signal, deadlineMs: config.shutdownTimeoutMs });
    exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/**
 * Refuse to start on a log whose metadata is wrong (an unreadable or disagreeing topic.json):
 * writing into it would put keys on the wrong partitions. A log that is only unreachable (a
 * broker down) is not a reason to stop: the writers wait for it.
 */
async function checkLog(log: EventLog, logger: ServiceLogger): Promise<void> {
  for (const topic of ['venues', 'books'] as const) {
    try {
      await log.partitions(topic);
    } catch (e) {
      if (e instanceof LogError && e.code === 'corrupt') throw e;
      logger.warn('event log not reachable at start; writes wait for it', { topic, error: String(e) });
      return;
    }
  }
}

function startLive(
  config: IngestorConfig,
  log: EventLog,
  sink: RecordSink,
  logger: ServiceLogger,
): () => Promise<void> {
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
  const quiet = venueFailures(logger, every);
  const options = ingestorOptions({
    sink: tally.tap(sink),
    venuesConfig,
    logger: quiet,
    bufferBytes: config.writeBufferBytes,
    listingRepublishMs: config.listingRepublishMs,
  });
  const running =
    config.shards === null
      ? wholeIngestor(options)
      : shardedIngestor(config, options, log, (s) => tally.tap(s), logger);
  const admin = config.metrics === null ? null : serveMetrics(running, config.metrics, logger);
  const timers: NodeJS.Timeout[] = [];
  if (every > 0) {
    const summarize = (): void => {
      const s = tally.summary(Date.now(), running.health());
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
    await running.stop();
    await (await admin)?.close();
  };
}

/** What runs the venues of this process: one Ingestor, or the slots of a group. */
interface Running {
  stop(): Promise<void>;
  health(): VenueHealth[];
}

/** METRICS_PORT: the venues' states and counters (docs/venues.md "Metrics") and the process's own. */
async function serveMetrics(
  running: Running,
  metrics: NonNullable<IngestorConfig['metrics']>,
  logger: ServiceLogger,
): Promise<{ close(): Promise<void> } | null> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerVenueMetrics(registry, () => running.health());
  try {
    const admin = await startAdminServer(registry, metrics.port, metrics.host);
    // Tests and scripts read the bound port from this line (useful with METRICS_PORT=0).
    logger.info('metrics listening', { port: admin.port, url: admin.url });
    return admin;
  } catch (e) {
    logger.error('metrics port could not open; running without it', {
      error: errorMessage(e),
    });
    return null;
  }
}

/**
 * Where a looping replay starts: after the newest record already in the log (time keeps moving),
 * and never before now: an API on the wall clock (its own process, docker-compose.yml) then sees
 * fresh books from the first pass, not the recording's day. A log that cannot answer yet (a Kafka
 * topic just created, its partition leaders not elected) is asked again (pauses under 250 ms
 * doubling to 2 s) until it answers or the replay is stopped.
 */
function loopStart(log: EventLog, signal: AbortSignal, logger: ServiceLogger): Promise<number> {
  return retry(async () => Math.max((await newestReceivedAt(log)) ?? 0, Date.now()), {
    initialMs: 250,
    maxMs: 2_000,
    signal,
    onRetry: (e, attempt) => {
      if (attempt % 10 === 0)
        logger.warn('event log not readable yet; the replay waits for it', {
          attempt: attempt + 1,
          error: errorMessage(e),
        });
    },
  });
}

/** Every configured venue in this process. */
function wholeIngestor(options: IngestorOptions): Running {
  const ingestor = new Ingestor(options);
  ingestor.start();
  return ingestor;
}

/** INGESTOR_GROUP: this process runs the venues the group gives it (venue-shards.ts). */
function shardedIngestor(
  config: IngestorConfig,
  options: IngestorOptions,
  log: EventLog,
  tap: (sink: RecordSink) => RecordSink,
  logger: ServiceLogger,
): Running {
  // INGESTOR_GROUP needs KAFKA_BROKERS (libs/config): the log is Kafka's.
  if (!(log instanceof KafkaLog)) throw new Error('INGESTOR_GROUP needs the Kafka log (KAFKA_BROKERS)');
  const kafka = log;
  const shards = new VenueShards({
    log,
    writer: (may) => kafka.gatedWriter(may),
    tap,
    shards: config.shards!,
    brokers: config.log.kafkaBrokers ?? [],
    topicPrefix: config.log.topicPrefix,
    replicationFactor: config.log.replication.factor,
    options,
    logger: logger.child({ component: 'IngestorGroup' }),
    ingestor: (o) => new Ingestor(o),
  });
  // A broker not reachable yet is retried by the group itself; only a bad setting ends the process.
  shards.start().catch((e: unknown) => {
    logger.error('ingestor group failed', { error: errorMessage(e) });
    process.exit(1);
  });
  return shards;
}

function startReplay(
  config: IngestorConfig,
  log: EventLog,
  logger: ServiceLogger,
  finished: (code: 0 | 1) => void,
): () => Promise<void> {
  const replay = config.replay!;
  const abort = new AbortController();
  let lastPass = -1;
  const done = (replay.loop ? loopStart(log, abort.signal, logger) : Promise.resolve(null))
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
        onWriteError: (e, attempt) => {
          if (attempt % 10 === 0)
            logger.error('log write failed; the replay waits and retries', { attempt, error: e.message });
        },
        onRefused: (r, e) =>
          logger.error('record refused by the log and dropped', {
            type: r.type,
            exchangeId: r.exchangeId,
            error: e.message,
          }),
      }),
    )
    .then(
      (summary) => {
        logger.info('replay finished', { ...summary });
        if (!abort.signal.aborted) finished(0);
      },
      // Only reading the recording can end it (a file gone): say so and exit 1.
      (e: unknown) => {
        logger.error('replay stopped', { error: errorMessage(e) });
        if (!abort.signal.aborted) finished(1);
      },
    );
  return async () => {
    abort.abort();
    await done.catch(() => undefined);
  };
}

main().catch((e: unknown) => {
  process.stderr.write(`ingestor failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
