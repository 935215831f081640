import type { LogConfig } from '@app/config';
import type { Registry } from 'prom-client';

/** What `npm start` hands its ingestor thread (structured-cloned: plain data). */
export interface IngestWorkerData {
  readonly log: LogConfig;
  /** VENUES_CONFIG's path, or null for the default venues. */
  readonly venuesConfig: string | null;
  readonly bufferBytes: number;
  readonly listingRepublishMs: number;
  /** Whether the main thread's logger prints debug lines (the thread sends none otherwise). */
  readonly debug: boolean;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One metric family as prom-client's getMetricsAsJSON gives it. */
export type MetricFamily = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];

/** Messages from the ingestor thread. */
export type FromIngestor =
  /** VENUES_CONFIG was read and is valid (or there is none); its metric families, still empty. */
  | { readonly t: 'ready'; readonly families: readonly MetricFamily[] }
  /** VENUES_CONFIG is not valid: every problem, as the ingestor states them. */
  | { readonly t: 'refused'; readonly message: string }
  /** One line for the main thread's logger. */
  | {
      readonly t: 'log';
      readonly level: LogLevel;
      readonly message: string;
      readonly fields?: Readonly<Record<string, unknown>>;
    }
  /** The answer to `metrics` `id`: the venues' metric families now. */
  | { readonly t: 'metrics'; readonly id: number; readonly families: readonly MetricFamily[] }
  /** Its venues are stopped, their records written and its log closed. */
  | { readonly t: 'stopped' };

/** Messages to the ingestor thread. */
export type ToIngestor =
  /** Connect the venues (the API listens by now). */
  { readonly t: 'start' } | { readonly t: 'metrics'; readonly id: number } | { readonly t: 'stop' };
