import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EmbeddedLog, type EventLog } from '@app/event-log';
import { ApiModule, type ApiDeps } from './api.module';
import { serveDocs } from './docs/serve';
import { createEdge } from './edge/edge';
import {
  JournalIndexer,
  journalIndexes,
  OriginLog,
  QuoteJournal,
  SharedIndexPublisher,
  sharedIndexTopics,
  type SharedIndexTopics,
} from '@app/audit';
import { JOURNAL_TOPICS } from '@app/events';
import { warmTimeIndex } from '@app/history';
import { ServiceStatus } from './health/service-status';
import { ApiMetrics } from './metrics/api-metrics';
import { installRouteTiming } from './metrics/route-timing';
import { GatedWsAdapter } from './stream/gated-ws-adapter';
import { StreamHub, type StreamStats } from './stream/stream-hub';
import { STREAM_SOCKET_OPTIONS, StreamSocket } from './stream/stream-socket';
import type { Limits } from './limits/limits';
import { limitsFor } from './limits/limits-for';
import { ephemeralReceiptKeys, type ReceiptKeys } from './receipts/key-store';
import { CheckpointTimer, journalHealthy } from './receipts/checkpoint-timer';

/** POST /route body cap (clarifications 9). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface ApiServer {
  readonly app: NestFastifyApplication;
  /** The port actually bound (useful with --port 0). */
  readonly port: number;
  /** http://127.0.0.1:<port> (IPv4, since IPv6 clients are refused). */
  readonly url: string;
  /** Where every served result is journalled (flushed and closed by close()). */
  readonly journal: QuoteJournal;
  /** The origin's transparency log (RECEIPTS=true), else null. */
  readonly tlog: OriginLog | null;
  /** One pass of the requestId indexer now (on the embedded log, none without journalIndexDir). */
  indexJournal(): Promise<void>;
  /** Prometheus metrics (served on the admin port when METRICS_PORT is set). */
  readonly metrics: ApiMetrics;
  /** /health's judgement with the venue detail behind it (console summary). */
  readonly status: ServiceStatus;
  streamStats(): StreamStats;
  /** What a stop has in hand now: open streams, requests in flight, journal records not yet in the log. */
  pending(): PendingWork;
  /**
   * Graceful stop: /ready turns 503, streams close with 1001, the listener closes and in-flight
   * requests finish, then the journal's batched records are appended and the journal closed.
   */
  close(): Promise<void>;
}

/** The work a stop waits for (docs/deploy.md "Shutdown"). */
export interface PendingWork {
  readonly streams: number;
  readonly requests: number;
  readonly journalRecords: number;
}

export interface ApiServerOptions extends Omit<
  ApiDeps,
  'journal' | 'limits' | 'gate' | 'receiptKeys' | 'tlog'
> {
  /** Default: a key held in memory only (receipts/key-store.ts ephemeralReceiptKeys). */
  readonly receiptKeys?: ReceiptKeys;
  /** Default: from the config (shared through Redis with REDIS_URL, else in this process). */
  readonly limits?: Limits;
  /** Nest's logger: the service logger (NestLogger), false for none, or Nest's console at these levels. */
  readonly logger?: false | LogLevel[] | LoggerService;
  /**
   * Keep the journal's requestId index here (JournalIndexer); none when omitted. On Kafka the
   * index is published to the log's shared topics instead (docs/replay.md), whatever this says.
   */
  readonly journalIndexDir?: string;
}

/** Build the edge, create the Nest application on it, install the docs, and listen. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const journalLogger = new Logger('QuoteJournal');
  const receiptKeys = options.receiptKeys ?? ephemeralReceiptKeys(options.config.receipts.origin);
  // RECEIPTS=true: the origin's transparency log over every journal record (docs/audit.md).
  const tlog: OriginLog | null = options.config.receipts.attach
    ? await OriginLog.open({
        log: options.log,
        key: receiptKeys.key,
        mergeDelayMs: options.config.receipts.mergeDelayMs,
        now: () => options.clock.now(),
        promiseKept: journalHealthy(() => journal),
        prefixEveryLeaves: options.config.receipts.prefixEveryLeaves,
      })
    : null;
  // JOURNAL_STRICT: responses wait for their record; otherwise records are appended in batches.
  const journal: QuoteJournal = new QuoteJournal({
    log: options.log,
    routing: options.config.routing,
    mode: options.config.journalStrict ? 'strict' : 'batched',
    // JOURNAL_RESPONSES: whole responses in the journal (about 15 KB a quote) instead of hash and length.
    storeResponses: options.config.journalResponses,
    // JOURNAL_QUEUE_BYTES: what waits in memory per journal topic while the log lags or refuses.
    maxQueuedBytes: options.config.journalQueueBytes,
    // The embedded log appends with a local write: small appends right after each turn's responses
    // keep the event loop free of multi-millisecond bursts (p99). Kafka favours 20 ms batches.
    flushMs: options.log instanceof EmbeddedLog ? 0 : 20,
    onError: (e) => journalLogger.error(`append failed, retrying: ${e.message}`),
    ...(tlog === null ? {} : { onAppended: (topic, records) => tlog.appended(topic, records) }),
  });
  const checkpoints =
    tlog === null
      ? null
      : new CheckpointTimer(tlog, options.config.receipts.checkpointIntervalMs, journalLogger);
  const { journalIndexDir, limits: given, receiptKeys: _keys, ...rest } = options;
  const limits = given ?? limitsFor(options.config);
  await limits.start();
  const indexer = journalIndexer(options.log, journalIndexDir, (e) =>
    journalLogger.warn(`requestId index not updated (replay reads the rest of the journal): ${e.message}`),
  );
  // Every answer passes one gate: requests, Node's and Fastify's failures, upgrades (edge/). The
  // edge is made before Nest and handed to it as values; Nest hands nothing back.
  const edge = createEdge({
    http: options.config.http,
    trustedProxies: options.config.trustedProxies,
    rate: limits.rate,
    bodyLimit: BODY_LIMIT_BYTES,
    stream: { ...STREAM_SOCKET_OPTIONS, WebSocket: StreamSocket },
  });
  const deps: ApiDeps = {
    ...rest,
    journal,
    limits,
    gate: edge.gate,
    receiptKeys,
    tlog,
  };
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(deps), edge.adapter, {
    logger: options.logger ?? ['error', 'warn'],
    // Bodies are parsed by the edge's JSON parser (strict JSON), not Nest's default parsers.
    bodyParser: false,
  });
  app.useGlobalFilters(edge.errors);
  app.useWebSocketAdapter(new GatedWsAdapter(app, edge.streams));
  const fastify = app.getHttpAdapter().getInstance();
  // Requests between their first byte and their answer's end (or the connection's loss).
  let requests = 0;
  const httpServer: Server = app.getHttpServer();
  httpServer.on('request', (_req, res) => {
    requests++;
    res.once('close', () => requests--);
  });
  const hub = app.get(StreamHub);
  const status = app.get(ServiceStatus);
  const metrics = new ApiMetrics({
    log: options.log,
    feed: options.feed,
    journal,
    stream: () => hub.stats(),
    refusals: () => edge.gate.refusals,
    connections: () => edge.connections(),
    limits: () => limits.stats(),
    status: () => status.report(),
  });
  hub.onPush = (ms) => metrics.observePush(ms);
  installRouteTiming(fastify, metrics);
  serveDocs(fastify);
  await app.init();
  // '::' is dual-stack on Linux, so IPv6 clients reach the ipv4_only answer (clarifications 10).
  await app.listen(options.config.port, options.config.host);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  indexer?.start();
  checkpoints?.start();
  // The asOf time index, built in the background now rather than by the first asOf request.
  warmTimeIndex(options.log).catch((e: Error) =>
    journalLogger.warn(`asOf time index not built ahead (the first asOf builds it): ${e.message}`),
  );
  return {
    app,
    port,
    url: `http://127.0.0.1:${port}`,
    journal,
    tlog,
    indexJournal: () => indexer?.pass() ?? Promise.resolve(),
    metrics,
    status,
    streamStats: () => hub.stats(),
    pending: () => ({ streams: hub.stats().subscribers, requests, journalRecords: journal.queued }),
    close: async () => {
      status.markStopping();
      await hub.goAway();
      await app.close();
      // After the server stopped answering: everything it served is appended before the log closes.
      await journal.close();
      // The last checkpoint covers every record this process appended.
      await checkpoints?.stop();
      tlog?.close();
      await indexer?.stop();
      await limits.close();
    },
  };
}

/**
 * The requestId indexer of this API, one index per journal topic (`quotes`, `stream`): on Kafka
 * it publishes them beside the journal, where an auditor on any machine reads them (a pass every
 * 2 s; a stop halts it: what is left is built by another replica or the next start); on the
 * embedded log it keeps them in the data directory (a pass every second and one at stop).
 */
function journalIndexer(
  log: EventLog,
  dir: string | undefined,
  onError: (e: Error) => void,
): JournalIndexer | null {
  const shared = JOURNAL_TOPICS.map((t) => sharedIndexTopics(log, t));
  if (shared.every((t): t is SharedIndexTopics => t !== null))
    return new JournalIndexer(
      shared.map((t) => new SharedIndexPublisher(log, t)),
      onError,
      2000,
    );
  if (dir === undefined) return null;
  const local = journalIndexes(log, dir);
  return new JournalIndexer([local.quotes, local.stream], onError);
}
