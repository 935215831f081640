import {
  Ingestor,
  ingestorOptions,
  parseVenuesConfig,
  watchOrderBookIds,
  type IngestorLogger,
  type IngestorOptionsInput,
} from '@app/venues';
import { defaultOf } from '@app/config';
import type { RecordSink } from '@app/event-log';
import { MemorySink } from './memory-sink';
import { T0 } from '@test/support';

/** Log lines kept for assertions instead of printed. */
export class MemoryLogger implements IngestorLogger {
  readonly lines: { level: string; message: string; fields?: Readonly<Record<string, unknown>> }[] = [];
  info(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: Readonly<Record<string, unknown>>): void {
    this.lines.push({ level: 'error', message, fields });
  }
}

/** Where the harness's ingestor clock starts; it steps one millisecond per reading. */
export const INGEST_CLOCK_START = T0;

/** An ingestor over `venues` (the VENUES_CONFIG shape) writing into a MemorySink, with a pinned-step clock. */
export function startIngestor(venues: Record<string, unknown>, extra: Partial<IngestorOptionsInput> = {}) {
  return startIngestorInto(new MemorySink(), venues, extra);
}

/** The same ingestor writing into any sink (the end-to-end tests give it a real event log). */
export function startIngestorInto<S extends RecordSink>(
  sink: S,
  venues: Record<string, unknown>,
  extra: Partial<IngestorOptionsInput> = {},
) {
  const logger = new MemoryLogger();
  let clock = INGEST_CLOCK_START;
  const venuesConfig = parseVenuesConfig({ venues }, 'test', watchOrderBookIds());
  const ingestor = new Ingestor(
    ingestorOptions({
      sink,
      bufferBytes: defaultOf('WRITE_BUFFER_BYTES'),
      listingRepublishMs: defaultOf('LISTING_REPUBLISH_MS'),
      logger,
      venuesConfig,
      now: () => clock++,
      backoff: { initialMs: 20, maxMs: 200 },
      ...extra,
    }),
  );
  ingestor.start();
  return { ingestor, sink, logger };
}

/** ccxt's re-dial backoff starts at 1 s; tests shorten it (options.ws.backoff). */
export const FAST_REDIAL = { backoff: { base: 50, max: 200 } };

/** ccxt options pointing binance at a local mock (spot markets only: the mock serves spot exchangeInfo). */
export function binanceCcxt(http: string, ws: string): Record<string, unknown> {
  return {
    urls: { api: { public: `${http}/api/v3`, ws: { spot: `${ws}/stream/ws` } } },
    // The mock has no request weights; ccxt's limiter still runs, just with a short interval.
    rateLimit: 5,
    options: { fetchMarkets: { types: ['spot'] }, ws: FAST_REDIAL },
  };
}
