import { errorMessage } from '@app/retry';
import { Logger } from '@nestjs/common';
import type { LogConfig, ServerConfig } from '@app/config';
import type { ServiceLogger } from '@app/telemetry';
import { RECORD_TOPICS } from '@app/events';
import {
  DEFAULT_SNAPSHOT_POLICY,
  LogError,
  openEventLog,
  retentionLine,
  type EventLog,
} from '@app/event-log';
import { startApiServer, type ApiServer, type PendingWork } from './bootstrap';
import type { Clock } from './clock';
import { NestLogger } from './logging/nest-logger';
import { createBookFeed, type BookFeed, type FeedLogger } from '@app/live-feed';
import { journalIndexDir } from '@app/audit';

/** The pieces every API host process wires: the log, the feed folding it, the HTTP server. */
export interface ApiHost {
  readonly log: EventLog;
  readonly feed: BookFeed;
  /** Where the journal's requestId index is kept (beside the data; docs/replay.md). */
  readonly journalIndexDir?: string;
  server: ApiServer | null;
}

/** Open the configured log (Kafka or embedded) and start folding it; resolves once caught up. */
export async function openFeed(
  config: LogConfig,
  logger: FeedLogger = new Logger('BookFeed'),
): Promise<ApiHost> {
  const log = openEventLog({
    kafkaBrokers: config.kafkaBrokers,
    dataDir: config.dataDir,
    topicPrefix: config.topicPrefix,
    retention: config.retention,
    replication: config.replication,
    onRetention: (results) => logger.log(retentionLine(results)),
  });
  await refuseShortRetention(log);
  const feed = createBookFeed({ log, logger });
  await feed.start();
  return { log, feed, journalIndexDir: journalIndexDir(config.dataDir), server: null };
}

/**
 * Refuse to start on a Kafka topic whose retention would delete books' only snapshots (shorter
 * than ten snapshot periods). A broker that cannot be asked yet is not a reason to stop.
 */
export async function refuseShortRetention(log: EventLog): Promise<void> {
  let problem: string | null = null;
  try {
    problem = await log.snapshotRetentionProblem(DEFAULT_SNAPSHOT_POLICY.everyMs);
  } catch (e) {
    if (!(e instanceof LogError && e.code === 'unavailable')) throw e;
  }
  if (problem !== null) throw new LogError('bad_argument', problem);
}

/** Resolve once the feed has applied everything appended to the log so far. */
export async function waitCaughtUp(host: ApiHost, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const positions = host.feed.positions();
    let behind = false;
    for (const topic of RECORD_TOPICS) {
      const hwm = await host.log.highWatermarks(topic);
      const pos = positions[topic] ?? [];
      if (hwm.some((h, p) => (pos[p] ?? 0) < h)) behind = true;
    }
    if (!behind) return;
    if (performance.now() > deadline) throw new Error('the book feed did not catch up with the log in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Start the HTTP/WebSocket server on the host's feed and announce where it listens. */
export async function serveApi(
  host: ApiHost,
  config: ServerConfig,
  clock: Clock,
  logger: ServiceLogger,
): Promise<ApiServer> {
  host.server = await startApiServer({
    config,
    feed: host.feed,
    clock,
    log: host.log,
    logger: new NestLogger(logger),
    ...(host.journalIndexDir === undefined ? {} : { journalIndexDir: host.journalIndexDir }),
  });
  // In JSON mode (stdout not a terminal) this is `{"level":"info","time":...,"message":"listening",
  // "port":N,"url":...}` on stdout: scripts and tests read the bound port from it (--port 0).
  logger.info('listening', { port: host.server.port, url: host.server.url });
  return host.server;
}

/** Close server, feed and log in that order (the reverse of start). */
export async function closeHost(host: ApiHost): Promise<void> {
  await host.server?.close();
  await host.feed.stop();
  await host.log.close();
}

/** How a process stops on SIGINT/SIGTERM (docs/deploy.md "Shutdown"). */
export interface ShutdownOptions {
  /** SHUTDOWN_TIMEOUT_MS: past it the process exits with what is unfinished counted. */
  readonly deadlineMs: number;
  readonly logger: ServiceLogger;
  /** The work still in hand (null before the server listens). */
  readonly pending: () => PendingWork | null;
}

/**
 * On SIGINT/SIGTERM run `stop` (once) and exit 0 when it finishes; if it has not finished within
 * the deadline (a broker that does not answer, a client that never ends its request), exit 1. The
 * process's last line counts what the stop found and what it could not finish: streams closed,
 * requests finished or unfinished, journal records appended or lost.
 */
export function onShutdown(stop: () => Promise<void>, options: ShutdownOptions): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const startedAt = performance.now();
    const before = options.pending() ?? { streams: 0, requests: 0, journalRecords: 0 };
    options.logger.info('stopping', {
      signal,
      deadlineMs: options.deadlineMs,
      ...prefixed('pending', before),
    });
    const deadline = setTimeout(() => {
      const left = options.pending() ?? before;
      options.logger.error('stop deadline passed: exiting with work unfinished', {
        deadlineMs: options.deadlineMs,
        streamsClosed: before.streams - left.streams,
        requestsUnfinished: left.requests,
        journalRecordsLost: left.journalRecords,
      });
      process.exit(1);
    }, options.deadlineMs);
    stop().then(
      () => {
        clearTimeout(deadline);
        const left = options.pending() ?? { streams: 0, requests: 0, journalRecords: 0 };
        options.logger.info('stopped', {
          ms: Math.round(performance.now() - startedAt),
          streamsClosed: before.streams,
          requestsFinished: before.requests - left.requests,
          requestsUnfinished: left.requests,
          journalRecordsLost: left.journalRecords,
        });
        process.exit(0);
      },
      (e: unknown) => {
        clearTimeout(deadline);
        options.logger.error('stop failed', { error: errorMessage(e) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

function prefixed(prefix: string, work: PendingWork): Record<string, number> {
  return {
    [`${prefix}Streams`]: work.streams,
    [`${prefix}Requests`]: work.requests,
    [`${prefix}JournalRecords`]: work.journalRecords,
  };
}
