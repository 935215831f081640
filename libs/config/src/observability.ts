import { LOG_LEVELS } from './keys/process-keys';
import type { Reader } from './read-values';

export { LOG_LEVELS };
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** `auto`: readable lines on a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** How a service process writes its console (docs/operations-log.md "Console"). */
export interface ConsoleConfig {
  /** LOG_LEVEL. */
  readonly level: LogLevelName;
  /** LOG_FORMAT. */
  readonly format: LogFormat;
  /** LOG_SUMMARY_MS: the one-line venue and book summary's period; 0 = none. */
  readonly summaryEveryMs: number;
}

/** The Prometheus admin endpoint (GET /metrics) on its own port; null = not served. */
export interface MetricsConfig {
  /** METRICS_PORT (0 picks a free port). */
  readonly port: number;
  /** METRICS_HOST (loopback by default: metrics are not for the public). */
  readonly host: string;
}

/** LOG_LEVEL, LOG_FORMAT, LOG_SUMMARY_MS. */
export function readConsole(r: Reader): ConsoleConfig {
  // The table's checks name a bad level or format; the config is then refused as a whole.
  return {
    level: r.text('LOG_LEVEL') as LogLevelName,
    format: r.text('LOG_FORMAT') as LogFormat,
    summaryEveryMs: r.int('LOG_SUMMARY_MS'),
  };
}

/**
 * SHUTDOWN_TIMEOUT_MS: how long a stop (SIGTERM, SIGINT) may take before the process exits with
 * what it could not finish counted in its last line.
 */
export function readShutdownTimeout(r: Reader): number {
  return r.int('SHUTDOWN_TIMEOUT_MS');
}

/** METRICS_PORT (unset: no metrics endpoint) and METRICS_HOST. */
export function readMetrics(r: Reader): MetricsConfig | null {
  const host = r.text('METRICS_HOST')!;
  const port = r.intOrNull('METRICS_PORT');
  return port === null ? null : { port, host };
}
