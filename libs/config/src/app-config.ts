import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './config-error';
import { deepFreeze } from './deep-freeze';
import { readHttpLimits, type HttpLimits } from './http-limits';
import {
  readConsole,
  readMetrics,
  readShutdownTimeout,
  type ConsoleConfig,
  type MetricsConfig,
} from './observability';
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
  /** KAFKA_REPLICATION_FACTOR / KAFKA_MIN_INSYNC_REPLICAS of the topics created on Kafka; loadConfig always sets it. */
  readonly replication?: { readonly factor: number; readonly minInsync: number };
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
  /** REDIS_URL: rate limit and stream cap shared through Redis; null (or absent) = in this process. */
  readonly redisUrl?: string | null;
}

/** The stream's global budget (docs/api.md "Stream budget"). */
export interface StreamBudgetSettings {
  readonly framesPerSec: number;
  readonly bytesPerSec: number;
}

/** INGESTOR_GROUP: ingestors of one group split the venues between them (Kafka only). */
export interface ShardConfig {
  readonly group: string;
  /** INGESTOR_SESSION_MS: how long a silent member keeps its venues. */
  readonly sessionMs: number;
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
  /** SHUTDOWN_TIMEOUT_MS: the deadline of a graceful stop. */
  readonly shutdownTimeoutMs: number;
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
  /** LISTING_REPUBLISH_MS: how often the ingestor writes every market and venue record again (0 = never). */
  readonly listingRepublishMs: number;
  readonly console: ConsoleConfig;
  readonly metrics: MetricsConfig | null;
  /** SHUTDOWN_TIMEOUT_MS: the deadline of a graceful stop. */
  readonly shutdownTimeoutMs: number;
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
  /** LISTING_REPUBLISH_MS: how often the ingestor writes every market and venue record again (0 = never). */
  readonly listingRepublishMs: number;
  readonly console: ConsoleConfig;
  /** SHUTDOWN_TIMEOUT_MS: the deadline of a graceful stop. */
  readonly shutdownTimeoutMs: number;
  /** null = this ingestor runs every configured venue. */
  readonly shards: ShardConfig | null;
  /** METRICS_PORT: the venues' counters and states at GET /metrics. */
  readonly metrics: MetricsConfig | null;
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
  const shutdownTimeoutMs = readShutdownTimeout(r);
  let config: ApiConfig | StartConfig | IngestorConfig;
  if (app === 'ingestor') {
    const replay = readReplay(r, cwd);
    config = {
      app: 'ingestor',
      log,
      replay,
      venuesConfig: readVenuesConfig(r, cwd),
      writeBufferBytes: readWriteBuffer(r),
      listingRepublishMs: readListingRepublish(r),
      console: consoleConfig,
      shutdownTimeoutMs,
      shards: readShards(r, log),
      metrics: readMetrics(r),
    };
  } else {
    const server = readServer(r);
    const nowMs = r.int('--now', r.flag('now'), -1, 0, 8_640_000_000_000_000);
    const pinned = r.flag('now') === undefined || nowMs < 0 ? null : nowMs;
    const metrics = readMetrics(r);
    config =
      app === 'api'
        ? { app: 'api', server, log, nowMs: pinned, console: consoleConfig, metrics, shutdownTimeoutMs }
        : {
            app: 'start',
            server,
            log,
            nowMs: pinned,
            replay: readReplay(r, cwd),
            venuesConfig: readVenuesConfig(r, cwd),
            writeBufferBytes: readWriteBuffer(r),
            listingRepublishMs: readListingRepublish(r),
            console: consoleConfig,
            metrics,
            shutdownTimeoutMs,
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
        5_000,
        1,
        100_000_000,
      ),
      bytesPerSec: r.int(
        'STREAM_BYTES_PER_SEC',
        r.envValue('STREAM_BYTES_PER_SEC'),
        16 * 1024 * 1024,
        64 * 1024,
        2 ** 40,
      ),
    },
    redisUrl: readRedisUrl(r),
  };
}

/** `redis://[user:password@]host:port[/db]` (or rediss:// for TLS). */
function readRedisUrl(r: Reader): string | null {
  const raw = r.envValue('REDIS_URL');
  if (raw === undefined) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    r.bad('REDIS_URL', `must be redis://host:port, got '${raw.replace(/\/\/[^@/]*@/, '//***@')}'`);
    return null;
  }
  return raw;
}

function readShards(r: Reader, log: LogConfig): ShardConfig | null {
  const group = r.envValue('INGESTOR_GROUP');
  const sessionMs = r.int('INGESTOR_SESSION_MS', r.envValue('INGESTOR_SESSION_MS'), 10_000, 1000, 300_000);
  if (group === undefined) return null;
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(group))
    r.bad('INGESTOR_GROUP', `must be 1 to 200 of [A-Za-z0-9._-], got '${group}'`);
  if (log.kafkaBrokers === null)
    r.bad('INGESTOR_GROUP', 'needs KAFKA_BROKERS: ingestors split venues through a Kafka consumer group');
  return { group, sessionMs };
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
  const factor = r.int('KAFKA_REPLICATION_FACTOR', r.envValue('KAFKA_REPLICATION_FACTOR'), 1, 1, 32);
  const minInsync = r.int('KAFKA_MIN_INSYNC_REPLICAS', r.envValue('KAFKA_MIN_INSYNC_REPLICAS'), 1, 1, 32);
  if (minInsync > factor)
    r.bad(
      'KAFKA_MIN_INSYNC_REPLICAS',
      `must not exceed KAFKA_REPLICATION_FACTOR (${factor}), got ${minInsync}: no append could be acknowledged`,
    );
  return {
    kafkaBrokers,
    dataDir: resolve(cwd, r.envValue('DATA_DIR') ?? defaultDir),
    topicPrefix,
    retention: readRetention(r),
    replication: { factor, minInsync },
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

/** 10 minutes by default (libs/venues DEFAULT_LISTING_REPUBLISH_MS); 0 = never, else 1 s to 1 day. */
function readListingRepublish(r: Reader): number {
  const ms = r.int('LISTING_REPUBLISH_MS', r.envValue('LISTING_REPUBLISH_MS'), 600_000, 0, 86_400_000);
  if (ms > 0 && ms < 1_000) r.bad('LISTING_REPUBLISH_MS', `must be 0 (never) or at least 1000, got ${ms}`);
  return ms;
}

function readVenuesConfig(r: Reader, cwd: string): string | null {
  const raw = r.envValue('VENUES_CONFIG');
  if (raw === undefined) return null;
  const abs = resolve(cwd, raw);
  if (!existsSync(abs)) r.bad('VENUES_CONFIG', `no such file: ${raw}`);
  return abs;
}
