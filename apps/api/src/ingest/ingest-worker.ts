import { parentPort, workerData } from 'node:worker_threads';
import { logSink, openEventLog, retentionLine } from '@app/event-log';
import {
  Ingestor,
  ingestorOptions,
  loadVenuesConfig,
  registerVenueMetrics,
  VenuesConfigError,
  watchOrderBookIds,
  type IngestorLogger,
  type VenuesConfig,
} from '@app/venues';
import { Registry } from 'prom-client';
import type { FromIngestor, IngestWorkerData, LogLevel, ToIngestor } from './ingest-messages';

/**
 * `npm start`'s ingestor thread (ingest-thread.ts starts it): live venues through ccxt into the
 * event log, on an EventLog of its own. ccxt (its load, its message handling), the book diffs and
 * the log appends all run here, so a venue flooding a book never holds the event loop that
 * answers requests; the main thread only folds what lands in the log, as `npm run start:api` does
 * beside `npm run start:ingestor`. This thread is the one writer of the books and venues topics
 * (market records go to venues); the main thread writes only the journal's.
 */
const data = workerData as IngestWorkerData;
const port = parentPort!;

function send(message: FromIngestor): void {
  try {
    port.postMessage(message);
  } catch {
    // A field that cannot be cloned (a function, a socket): the line goes as JSON would print it.
    port.postMessage(JSON.parse(JSON.stringify(message)) as FromIngestor);
  }
}

const line =
  (level: LogLevel) =>
  (message: string, fields?: Readonly<Record<string, unknown>>): void =>
    send({ t: 'log', level, message, ...(fields === undefined ? {} : { fields }) });
const logger: IngestorLogger = {
  ...(data.debug ? { debug: line('debug') } : {}),
  info: line('info'),
  warn: line('warn'),
  error: line('error'),
};

let venuesConfig: VenuesConfig | null = null;
let refused: string | null = null;
try {
  venuesConfig = data.venuesConfig === null ? null : loadVenuesConfig(data.venuesConfig, watchOrderBookIds());
} catch (e) {
  if (!(e instanceof VenuesConfigError)) throw e;
  refused = e.message;
}

if (refused !== null) send({ t: 'refused', message: refused });
else void run(venuesConfig);

async function run(config: VenuesConfig | null): Promise<void> {
  let ingestor: Ingestor | null = null;
  const registry = new Registry();
  registerVenueMetrics(registry, () => ingestor?.health() ?? []);
  const log = openEventLog({
    kafkaBrokers: data.log.kafkaBrokers,
    dataDir: data.log.dataDir,
    topicPrefix: data.log.topicPrefix,
    replication: data.log.replication,
    retention: data.log.retention,
    clientId: 'route-ingestor',
    onRetention: (results) => logger.info(retentionLine(results)),
  });
  port.on('message', (msg: ToIngestor) => {
    if (msg.t === 'metrics') {
      void registry.getMetricsAsJSON().then((families) => send({ t: 'metrics', id: msg.id, families }));
    } else if (msg.t === 'start' && ingestor === null) {
      ingestor = new Ingestor(
        ingestorOptions({
          sink: logSink(log),
          venuesConfig: config,
          logger,
          bufferBytes: data.bufferBytes,
          listingRepublishMs: data.listingRepublishMs,
        }),
      );
      ingestor.start();
    } else if (msg.t === 'stop') {
      void (ingestor?.stop() ?? Promise.resolve())
        .then(() => log.close())
        .catch((e: unknown) => logger.error('ingestor stop failed', { error: String(e) }))
        .finally(() => send({ t: 'stopped' }));
    }
  });
  send({ t: 'ready', families: await registry.getMetricsAsJSON() });
}
