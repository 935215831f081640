import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './config-error';
import { readHttpLimits, type HttpLimits } from './http-limits';
import { readConsole, readMetrics, type ConsoleConfig, type MetricsConfig } from './observability';
import { parseArgv } from './parse-argv';
import { FLAGS_OF, SWITCHES, type AppName } from './options';
import { Reader } from './read-values';
import { readRetention, type LogRetention } from './log-retention';

/** Where the event log lives: Kafka when brokers are given, otherwise the embedded log in dataDir. */
export interface LogConfig {
  /** null = the embedded on-disk log. */
  readonly kafkaBrokers: readonly string[] | null;
  readonly dataDir: string;
  /**
   * TOPIC_PREFIX: topics are `<prefix>.books` etc. ('' or absent = plain names), so several
   * deployments or tests can share one broker. loadConfig always sets it.
   */
  readonly topicPrefix?: string;
  /** Retention (embedded log: applied by the writer; Kafka: set on the topics it creates). loadConfig always sets it. */
  readonly retention?: LogRetention;
}

/** Routing knobs the server applies and echoes (structurally @app/routing's RoutingConfig). */
export interface RoutingSettings {
  readonly staleBookMs: number;
  readonly stalenessPenaltyBps: number;
  readonly defaultTakerFeeRate: number;
}

/** The HTTP/WebSocket server's settings. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly rateLimitRps: number;
  readonly streamMaxPerIp: number;
  readonly heartbeatMs: number;
  /** Peer addresses whose x-forwarded-for is believed; empty = forwarded headers ignored. */
  readonly trustedProxies: readonly string[];
  readonly routing: RoutingSettings;
  /** JOURNAL_STRICT: no response leaves before its quote journal record is in the log. */
  readonly journalStrict: boolean;
  /** Timeouts and connection budgets; loadConfig always sets them, absent = HTTP_LIMIT_DEFAULTS. */
  readonly http?: HttpLimits;
  /** JOURNAL_RESPONSES: journal records keep the whole response, not only its hash and length. */
  readonly journalResponses: boolean;
  /** STREAM_FRAMES_PER_SEC, STREAM_BYTES_PER_SEC; loadConfig always sets it, absent = the defaults. */
  readonly streamBudget?: StreamBudgetSettings;
  /** JOURNAL_QUEUE_BYTES: journal records held in memory per journal topic while the log lags; absent = 64 MiB. */
  readonly journalQueueBytes?: number;
}

/** The stream's global budget (docs/api.md "Stream budget"). */
export interface StreamBudgetSettings {
  readonly framesPerSec: number;
  readonly bytesPerSec: number;
}

export type ReplaySpeed = number | 'max';

export interface ReplayConfig {
  /** A JSON Lines file or a directory of *.jsonl files. */
  readonly path: string;
  readonly speed: ReplaySpeed;
  /** --loop: play the recording again and again, time-shifted (docs/replay.md "The demo"). */
  readonly loop: boolean;
}

/** `apps/api/src/main.ts`: the API process folding the log. */
export interface ApiConfig {
  readonly app: 'api';
  readonly server: ServerConfig;
  readonly log: LogConfig;
  /** Pinned clock (epoch ms), or null for the wall clock. */
  readonly nowMs: number | null;
  readonly console: ConsoleConfig;
  readonly metrics: MetricsConfig | null;
}

/** `npm start`: ingestor (live) or replay feeder, plus the API, in one process. */
export interface StartConfig {
  readonly app: 'start';
  readonly server: ServerConfig;
  readonly log: LogConfig;
  readonly nowMs: number | null;
  /** null = live venues through the ingestor. */
  readonly replay: ReplayConfig | null;
  readonly venuesConfig: string | null;
  /** WRITE_BUFFER_BYTES: records the ingestor holds while the log refuses writes. */
  readonly writeBufferBytes: number;
  readonly console: ConsoleConfig;
  readonly metrics: MetricsConfig | null;
}

/** `apps/ingestor`: live venues into the log. */
export interface IngestorConfig {
  readonly app: 'ingestor';
  readonly log: LogConfig;
  /** null = live venues; otherwise the recording is fed into the log instead. */
  readonly replay: ReplayConfig | null;
  readonly venuesConfig: string | null;
  /** WRITE_BUFFER_BYTES: records the ingestor holds while the log refuses writes. */
  readonly writeBufferBytes: number;
  readonly console: ConsoleConfig;
}

export type { AppName };
type ConfigOf<A extends AppName> = A extends 'api'
  ? ApiConfig
  : A extends 'start'
    ? StartConfig
    : IngestorConfig;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Build the frozen configuration of `app` from argv (without node and script) and the environment.
 * Throws ConfigError listing every bad key; never reads process.* itself (see loadConfigOrExit).
 */
export function loadConfig<A extends AppName>(
  app: A,
  argv: readonly string[],
  env: Env,
  cwd: string,
): ConfigOf<A> {
  const flags = FLAGS_OF[app];
  const parsed = parseArgv(
    argv,
    flags.filter((f) => !SWITCHES.has(f)),
    flags.filter((f) => SWITCHES.has(f)),
  );
  const r = new Reader(parsed.flags, env);
  r.issues.push(...parsed.issues);
  // `npm start -- --replay` (the demo) keeps its own directory, never mixed with the live log's.
  const log = readLog(
    r,
    cwd,
    app === 'start' && r.flag('replay') !== undefined ? './.data-replay' : './.data',
  );
  const consoleConfig = readConsole(r);
  let config: ApiConfig | StartConfig | IngestorConfig;
  if (app === 'ingestor') {
    const replay = readReplay(r, cwd);
    config = {
      app: 'ingestor',
      log,
      replay,
      venuesConfig: readVenuesConfig(r, cwd),
      writeBufferBytes: readWriteBuffer(r),
      console: consoleConfig,
    };
  } else {
    const server = readServer(r);
    const nowMs = r.int('--now', r.flag('now'), -1, 0, 8_640_000_000_000_000);
    const pinned = r.flag('now') === undefined || nowMs < 0 ? null : nowMs;
    const metrics = readMetrics(r);
    config =
      app === 'api'
        ? { app: 'api', server, log, nowMs: pinned, console: consoleConfig, metrics }
        : {
            app: 'start',
            server,
            log,
            nowMs: pinned,
            replay: readReplay(r, cwd),
            venuesConfig: readVenuesConfig(r, cwd),
            writeBufferBytes: readWriteBuffer(r),
            console: consoleConfig,
            metrics,
          };
  }
  if (r.issues.length > 0) throw new ConfigError(r.issues);
  return deepFreeze(config) as ConfigOf<A>;
}

function readServer(r: Reader): ServerConfig {
  const host = r.flag('host') ?? '::';
  if (/\s/.test(host)) r.bad('--host', `must be an address or host name, got '${host}'`);
  const proxies = (r.envValue('TRUSTED_PROXY') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  for (const p of proxies) if (isIP(p) === 0) r.bad('TRUSTED_PROXY', `'${p}' is not an IP address`);
  const strict = r.bool('JOURNAL_STRICT');
  return {
    port: r.int('--port', r.flag('port'), 3000, 0, 65535),
    host,
    rateLimitRps: r.int('RATE_LIMIT_RPS', r.envValue('RATE_LIMIT_RPS'), 5, 1, 1_000_000_000),
    streamMaxPerIp: r.int('STREAM_MAX_PER_IP', r.envValue('STREAM_MAX_PER_IP'), 10, 1, 1_000_000),
    heartbeatMs: r.int('HEARTBEAT_MS', r.envValue('HEARTBEAT_MS'), 15_000, 10, 3_600_000),
    trustedProxies: proxies,
    routing: {
      staleBookMs: r.int('STALE_BOOK_MS', r.envValue('STALE_BOOK_MS'), 10_000, 1, 86_400_000),
      stalenessPenaltyBps: r.num('STALENESS_PENALTY_BPS', r.envValue('STALENESS_PENALTY_BPS'), 1, 0, 10_000),
      defaultTakerFeeRate: r.num(
        'DEFAULT_TAKER_FEE_RATE',
        r.envValue('DEFAULT_TAKER_FEE_RATE'),
        0.001,
        0,
        0.5,
      ),
    },
    journalStrict: strict,
    journalResponses: r.bool('JOURNAL_RESPONSES'),
    http: readHttpLimits(r),
    journalQueueBytes: r.int(
      'JOURNAL_QUEUE_BYTES',
      r.envValue('JOURNAL_QUEUE_BYTES'),
      64 * 1024 * 1024,
      1024 * 1024,
      2 ** 40,
    ),
    streamBudget: {
      framesPerSec: r.int(
        'STREAM_FRAMES_PER_SEC',
        r.envValue('STREAM_FRAMES_PER_SEC'),
        10_000,
        1,
        100_000_000,
      ),
      bytesPerSec: r.int(
        'STREAM_BYTES_PER_SEC',
        r.envValue('STREAM_BYTES_PER_SEC'),
        32 * 1024 * 1024,
        64 * 1024,
        2 ** 40,
      ),
    },
  };
}

function readLog(r: Reader, cwd: string, defaultDir: string): LogConfig {
  const rawBrokers = r.envValue('KAFKA_BROKERS');
  let kafkaBrokers: string[] | null = null;
  if (rawBrokers !== undefined) {
    kafkaBrokers = rawBrokers.split(',').map((b) => b.trim());
    for (const b of kafkaBrokers)
      if (!/^[^\s:,]+:\d{1,5}$/.test(b)) r.bad('KAFKA_BROKERS', `'${b}' is not host:port`);
  }
  const topicPrefix = r.envValue('TOPIC_PREFIX') ?? '';
  // Kafka's legal topic characters; the embedded log also uses the name as a directory.
  if (!/^[A-Za-z0-9._-]{0,200}$/.test(topicPrefix))
    r.bad('TOPIC_PREFIX', `must be up to 200 of [A-Za-z0-9._-], got '${topicPrefix}'`);
  return {
    kafkaBrokers,
    dataDir: resolve(cwd, r.envValue('DATA_DIR') ?? defaultDir),
    topicPrefix,
    retention: readRetention(r),
  };
}

function readReplay(r: Reader, cwd: string): ReplayConfig | null {
  const path = r.flag('replay');
  const rawSpeed = r.flag('speed');
  let speed: ReplaySpeed = 1;
  if (rawSpeed === 'max') speed = 'max';
  else if (rawSpeed !== undefined) speed = r.num('--speed', rawSpeed, 1, 1e-6, 1e9);
  const loop = r.flag('loop') !== undefined;
  if (path === undefined) {
    if (rawSpeed !== undefined) r.bad('--speed', 'only applies with --replay');
    if (loop) r.bad('--loop', 'only applies with --replay');
    return null;
  }
  // Looping at max speed would write records as fast as the disk takes them, forever.
  if (loop && speed === 'max') r.bad('--loop', 'needs a paced --speed (a number), not max');
  const abs = resolve(cwd, path);
  if (!existsSync(abs)) r.bad('--replay', `no such file or directory: ${path}`);
  return { path: abs, speed, loop };
}

/** 64 MiB by default (libs/venues DEFAULT_BUFFER_BYTES); 1 MiB to 16 GiB. */
function readWriteBuffer(r: Reader): number {
  return r.int('WRITE_BUFFER_BYTES', r.envValue('WRITE_BUFFER_BYTES'), 64 * 1024 * 1024, 1 << 20, 2 ** 34);
}

function readVenuesConfig(r: Reader, cwd: string): string | null {
  const raw = r.envValue('VENUES_CONFIG');
  if (raw === undefined) return null;
  const abs = resolve(cwd, raw);
  if (!existsSync(abs)) r.bad('VENUES_CONFIG', `no such file: ${raw}`);
  return abs;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
