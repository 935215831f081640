import type { Fields, ServiceLogger } from './logger';

interface Seen {
  until: number;
  suppressed: number;
}

/** At most this many distinct (message, venue) keys are remembered; older ones are forgotten. */
const MAX_KEYS = 10_000;

/** The shortest window of `venueFailures`, whatever the summary period. */
export const MIN_VENUE_FAILURE_WINDOW_MS = 60_000;

/**
 * The ingestor's log of venue failures: a venue that stays down retries for weeks, so one line
 * per failure kind per summary period (`summaryEveryMs`), and never more than one a minute.
 */
export function venueFailures(logger: ServiceLogger, summaryEveryMs: number): ServiceLogger {
  return quietRepeats(
    logger.child({ component: 'Ingestor' }),
    Math.max(MIN_VENUE_FAILURE_WINDOW_MS, summaryEveryMs),
  );
}

/**
 * A logger that writes a repeated warning or error once per `windowMs`: the first occurrence of a
 * (message, exchangeId) pair in a window at its level, the others at debug, and the next one
 * after the window with `repeated: <count suppressed>`. A venue that stays down retries every
 * few seconds for weeks; its state is in the periodic summary, not in a line per retry.
 */
export function quietRepeats(
  logger: ServiceLogger,
  windowMs: number,
  now: () => number = () => performance.now(),
): ServiceLogger {
  const seen = new Map<string, Seen>();
  const gate =
    (level: 'warn' | 'error') =>
    (message: string, fields?: Fields): void => {
      const venue = fields?.exchangeId;
      const key = `${message}\u0000${typeof venue === 'string' ? venue : ''}`;
      const t = now();
      const s = seen.get(key);
      if (s !== undefined && t < s.until) {
        s.suppressed++;
        logger.debug(message, fields);
        return;
      }
      if (seen.size >= MAX_KEYS) seen.clear();
      seen.set(key, { until: t + windowMs, suppressed: 0 });
      const repeated = s?.suppressed ?? 0;
      logger[level](message, repeated > 0 ? { ...fields, repeated } : fields);
    };
  return {
    ...logger,
    warn: gate('warn'),
    error: gate('error'),
    child: (bindings) => quietRepeats(logger.child(bindings), windowMs, now),
  };
}
