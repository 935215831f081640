import type { Reader } from './read-values';

/** pino's level names, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** `auto`: readable lines on a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** How a service process writes its console (docs/operations-log.md "Console"). */
export interface ConsoleConfig {
  /** LOG_LEVEL (default info). */
  readonly level: LogLevelName;
  /** LOG_FORMAT (default auto). */
  readonly format: LogFormat;
  /** LOG_SUMMARY_MS: the one-line venue and book summary's period; 0 = none (default 60000). */
  readonly summaryEveryMs: number;
}

/** The Prometheus admin endpoint (GET /metrics) on its own port; null = not served. */
export interface MetricsConfig {
  /** METRICS_PORT (0 picks a free port). */
  readonly port: number;
  /** METRICS_HOST (default 127.0.0.1: metrics are not for the public). */
  readonly host: string;
}

/** LOG_LEVEL, LOG_FORMAT, LOG_SUMMARY_MS. */
export function readConsole(r: Reader): ConsoleConfig {
  const level = r.envValue('LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    r.bad('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got '${level}'`);
  const format = r.envValue('LOG_FORMAT') ?? 'auto';
  if (format !== 'auto' && format !== 'json' && format !== 'pretty')
    r.bad('LOG_FORMAT', `must be auto, json or pretty, got '${format}'`);
  return {
    level: (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevelName) : 'info',
    format: format === 'json' || format === 'pretty' ? format : 'auto',
    summaryEveryMs: r.int('LOG_SUMMARY_MS', r.envValue('LOG_SUMMARY_MS'), 60_000, 0, 86_400_000),
  };
}

/**
 * SHUTDOWN_TIMEOUT_MS: how long a stop (SIGTERM, SIGINT) may take before the process exits with
 * what it could not finish counted in its last line (default 8000: inside Docker's 10 s grace).
 */
export function readShutdownTimeout(r: Reader): number {
  return r.int('SHUTDOWN_TIMEOUT_MS', r.envValue('SHUTDOWN_TIMEOUT_MS'), 8000, 100, 3_600_000);
}

/** METRICS_PORT (unset: no metrics endpoint) and METRICS_HOST. */
export function readMetrics(r: Reader): MetricsConfig | null {
  const raw = r.envValue('METRICS_PORT');
  const host = r.envValue('METRICS_HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) r.bad('METRICS_HOST', `must be an address or host name, got '${host}'`);
  if (raw === undefined) return null;
  return { port: r.int('METRICS_PORT', raw, 0, 0, 65535), host };
}
