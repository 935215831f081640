import pino, { type DestinationStream, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';

/** Structured fields of one log line. */
export type Fields = Readonly<Record<string, unknown>>;

/** pino's levels plus `silent`. */
export type LevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/**
 * The one logger of every service process: a message and structured fields per line. Its
 * `info/warn/error(message, fields)` fit the ingestor's logger and `log/warn/error(message)` the
 * book feed's, so both take it as it is.
 */
export interface ServiceLogger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  /** Same as info (the book feed's and Nest's name for it). */
  log(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
  /** A logger whose lines all carry `bindings` (for example the component's name). */
  child(bindings: Fields): ServiceLogger;
  isLevelEnabled(level: Exclude<LevelName, 'silent'>): boolean;
}

export interface LoggerOptions {
  readonly level: LevelName;
  /** `auto`: readable lines when the output is a terminal, JSON lines otherwise. */
  readonly format: 'auto' | 'json' | 'pretty';
  /** Where lines go: a stream, or file descriptor 1 (stdout, the default) or 2 (stderr). */
  readonly destination?: DestinationStream | 1 | 2;
  /** Whether the output is a terminal, for `auto` (default: stdout's isTTY). */
  readonly terminal?: boolean;
}

/** Fields a readable line leaves out: the component (shown before the message) and counts the message says. */
const PRETTY_HIDDEN =
  'component,status,was,venues,connected,freshVenues,books,freshBooks,pass,recordedAt,servedAt';

/**
 * A pino logger. JSON lines read `{"level":"info","time":"<ISO>","message":"...",...fields}`:
 * the message comes before the fields, so the API's `{"level":"info",...,"message":"listening",
 * "port":N,...}` line stays what scripts match. Pretty mode (pino-pretty, in-process and
 * synchronous: no worker thread) prints `[12:00:01.234] INFO: message {fields}`.
 */
export function createLogger(options: LoggerOptions): ServiceLogger {
  const fd = typeof options.destination === 'number' ? options.destination : 1;
  const stream = typeof options.destination === 'object' ? options.destination : undefined;
  const terminal = options.terminal ?? (fd === 1 ? process.stdout : process.stderr).isTTY === true;
  const readable = options.format === 'pretty' || (options.format === 'auto' && terminal);
  const settings = {
    level: options.level,
    messageKey: 'message',
    // No pid and hostname on every line: one process per container or terminal.
    base: undefined,
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const destination: DestinationStream = readable
    ? pretty({
        colorize: terminal,
        messageKey: 'message',
        translateTime: 'SYS:HH:MM:ss.l',
        singleLine: true,
        // The component leads the message; the summary's counts are in its message already.
        messageFormat: '{if component}{component}: {end}{message}',
        ignore: PRETTY_HIDDEN,
        sync: true,
        destination: stream ?? fd,
      })
    : (stream ?? pino.destination({ dest: fd, sync: true }));
  return wrap(pino(settings, destination));
}

function wrap(p: Pino): ServiceLogger {
  // The message goes first in the merged object so it precedes the fields in JSON.
  const line =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Fields): void => {
      if (p.isLevelEnabled(level)) p[level]({ message, ...fields });
    };
  const info = line('info');
  return {
    debug: line('debug'),
    info,
    log: info,
    warn: line('warn'),
    error: line('error'),
    child: (bindings) => wrap(p.child(bindings)),
    isLevelEnabled: (level) => p.isLevelEnabled(level),
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const SILENT_LOGGER: ServiceLogger = {
  debug: () => undefined,
  info: () => undefined,
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => SILENT_LOGGER,
  isLevelEnabled: () => false,
};
