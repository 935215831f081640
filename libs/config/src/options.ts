/** The processes that read a configuration. */
export type AppName = 'api' | 'start' | 'ingestor';

/** One command-line flag: what `--help` shows. Values are validated in app-config.ts. */
export interface FlagHelp {
  readonly name: string;
  readonly value: string;
  readonly defaultText: string;
  readonly description: string;
}

/** One environment variable an app reads, with its default, for `--help` and the README. */
export interface EnvHelp {
  readonly name: string;
  readonly defaultText: string;
  readonly description: string;
  readonly apps: readonly AppName[];
}

/**
 * Every flag, in the order help lists them. `FLAGS_OF` says which app takes which; adding a flag
 * means a row here, a name there and its reading in app-config.ts (test/cli checks the three agree).
 */
export const FLAG_HELP: readonly FlagHelp[] = [
  {
    name: 'replay',
    value: '<file-or-dir>',
    defaultText: 'live venues',
    description:
      'feed recorded event records (JSON Lines; a directory = every *.jsonl in it, merged by receivedAt) instead of connecting to venues',
  },
  {
    name: 'speed',
    value: '<n|max>',
    defaultText: '1',
    description:
      'replay pacing: 1 = recorded timing, n = n times faster, max = as fast as possible (only with --replay)',
  },
  {
    name: 'now',
    value: '<epochMs>',
    defaultText: 'wall clock live, replayed time in replay',
    description: 'pin the service clock (tests, audits)',
  },
  {
    name: 'port',
    value: '<n>',
    defaultText: '3000',
    description: 'HTTP port; 0 picks a free one (printed on stdout)',
  },
  { name: 'host', value: '<addr>', defaultText: '::', description: 'listen address (dual-stack by default)' },
  {
    name: 'loop',
    value: '',
    defaultText: 'off',
    description:
      'play the recording again and again, time-shifted so books stay fresh (only with --replay at a paced --speed; npm run demo sets it)',
  },
  {
    name: 'retention-ms',
    value: '<ms>',
    defaultText: '604800000 (7 days)',
    description:
      'event log retention by age (LOG_RETENTION_MS); 0 = no age bound. Older asOf/replay instants are refused, naming the horizon',
  },
  {
    name: 'retention-bytes',
    value: '<n>',
    defaultText: '536870912 (512 MiB)',
    description: 'event log retention by size, per topic partition (LOG_RETENTION_BYTES); 0 = no size bound',
  },
];

/** Flags that take no value (a FLAG_HELP row with an empty `value`). */
export const SWITCHES: ReadonlySet<string> = new Set(
  FLAG_HELP.filter((f) => f.value === '').map((f) => f.name),
);

/** Which flags each app accepts. */
export const FLAGS_OF: Readonly<Record<AppName, readonly string[]>> = {
  api: ['port', 'host', 'now', 'retention-ms', 'retention-bytes'],
  start: ['port', 'host', 'now', 'replay', 'speed', 'loop', 'retention-ms', 'retention-bytes'],
  ingestor: ['replay', 'speed', 'loop', 'retention-ms', 'retention-bytes'],
};

const LOG: readonly AppName[] = ['api', 'start', 'ingestor'];
const SERVER: readonly AppName[] = ['api', 'start'];
const VENUES: readonly AppName[] = ['start', 'ingestor'];
const INGESTOR: readonly AppName[] = ['ingestor'];

/** Every environment variable read (libs/config is the only reader of process.env). */
export const ENV_HELP: readonly EnvHelp[] = [
  {
    name: 'KAFKA_BROKERS',
    defaultText: 'unset',
    description: 'host:port,... : Kafka instead of the embedded log',
    apps: LOG,
  },
  {
    name: 'DATA_DIR',
    defaultText: './.data',
    description:
      'where the embedded log lives; ./.data-replay for start --replay (the demo never mixes with the live log)',
    apps: LOG,
  },
  {
    name: 'LOG_RETENTION_MS',
    defaultText: '604800000 (7 days)',
    description:
      'drop event log segments older than this (books, quotes; each book keeps its latest snapshot); 0 = off; --retention-ms wins',
    apps: LOG,
  },
  {
    name: 'LOG_RETENTION_BYTES',
    defaultText: '536870912 (512 MiB)',
    description:
      'per topic partition, drop the oldest segments above this size; 0 = off; --retention-bytes wins',
    apps: LOG,
  },
  {
    name: 'LOG_SEGMENT_BYTES',
    defaultText: '67108864 (64 MiB)',
    description: 'embedded log segment size: the unit retention removes',
    apps: LOG,
  },
  { name: 'TOPIC_PREFIX', defaultText: 'unset', description: 'topics become <prefix>.books etc.', apps: LOG },
  {
    name: 'KAFKA_REPLICATION_FACTOR',
    defaultText: '1',
    description: 'replicas of each topic this service creates on Kafka (3 on a 3-broker cluster)',
    apps: LOG,
  },
  {
    name: 'KAFKA_MIN_INSYNC_REPLICAS',
    defaultText: '1',
    description:
      'min.insync.replicas of the topics it creates: an append is acknowledged once this many replicas have it (2 with 3 replicas)',
    apps: LOG,
  },
  {
    name: 'INGESTOR_GROUP',
    defaultText: 'unset',
    description:
      'Kafka only: ingestors sharing this group name split the venues, each venue run by one live ingestor; unset = run every venue',
    apps: INGESTOR,
  },
  {
    name: 'INGESTOR_SESSION_MS',
    defaultText: '10000',
    description:
      "with INGESTOR_GROUP: a silent ingestor's venues move to the others after this (it stops writing them before)",
    apps: INGESTOR,
  },
  {
    name: 'VENUES_CONFIG',
    defaultText: 'default venues',
    description:
      'JSON file choosing venues and symbols, and per-venue silence timeout, integrity checks and their interval, backoff and breaker',
    apps: VENUES,
  },
  {
    name: 'RATE_LIMIT_RPS',
    defaultText: '5',
    description: 'requests per 1000 ms window per client IP',
    apps: SERVER,
  },
  {
    name: 'REDIS_URL',
    defaultText: 'unset',
    description:
      'redis://host:port : the rate limit and the stream cap shared by every API replica; unset = kept in this process',
    apps: SERVER,
  },
  {
    name: 'STREAM_MAX_PER_IP',
    defaultText: '10',
    description: 'concurrent stream sockets per IP',
    apps: SERVER,
  },
  {
    name: 'STREAM_FRAMES_PER_SEC',
    defaultText: '5000',
    description:
      "stream frames a second in all (a tick's solve counts as 5); over it frames wait their turn, fairly by address, the newest state kept",
    apps: SERVER,
  },
  {
    name: 'STREAM_BYTES_PER_SEC',
    defaultText: '16777216 (16 MiB)',
    description: 'stream frame bytes a second in all, likewise',
    apps: SERVER,
  },
  {
    name: 'STALE_BOOK_MS',
    defaultText: '10000',
    description: 'freshness cutoff; older books never route',
    apps: SERVER,
  },
  {
    name: 'STALENESS_PENALTY_BPS',
    defaultText: '1',
    description: 'ranking markdown per sqrt second of book age',
    apps: SERVER,
  },
  {
    name: 'DEFAULT_TAKER_FEE_RATE',
    defaultText: '0.001',
    description: 'fee of a venue that publishes none',
    apps: SERVER,
  },
  { name: 'HEARTBEAT_MS', defaultText: '15000', description: 'stream ping interval', apps: SERVER },
  {
    name: 'TRUSTED_PROXY',
    defaultText: 'unset',
    description: 'comma-separated proxies whose x-forwarded-for is believed',
    apps: SERVER,
  },
  {
    name: 'JOURNAL_STRICT',
    defaultText: 'false',
    description: 'true: no quote leaves before its journal record is in the log',
    apps: SERVER,
  },
  {
    name: 'JOURNAL_QUEUE_BYTES',
    defaultText: '67108864 (64 MiB)',
    description:
      'journal records held in memory per journal topic (quotes, stream) while the log lags or refuses; over it new ones wait, or are refused while appends fail',
    apps: SERVER,
  },
  {
    name: 'JOURNAL_RESPONSES',
    defaultText: 'false',
    description: 'true: journal records keep the whole response, not only its hash and length',
    apps: SERVER,
  },
  {
    name: 'CONNECTIONS_MAX_PER_IP',
    defaultText: '64',
    description: 'open connections (HTTP and streams) per client IP; over it 429, closed',
    apps: SERVER,
  },
  {
    name: 'CONNECTIONS_MAX',
    defaultText: '10000',
    description:
      'open connections in all; at it a newcomer displaces the connection that held its slot longest while sending least (429 when none may go)',
    apps: SERVER,
  },
  {
    name: 'HEADERS_TIMEOUT_MS',
    defaultText: '10000',
    description: 'request line and headers must arrive within this, else 408',
    apps: SERVER,
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    defaultText: '30000',
    description: 'the whole request, body included, within this, else 408',
    apps: SERVER,
  },
  {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    defaultText: '5000',
    description: 'an idle keep-alive connection is closed after this',
    apps: SERVER,
  },
  {
    name: 'SEND_TIMEOUT_MS',
    defaultText: '30000',
    description: 'a connection whose client stops reading an answer is closed after this',
    apps: SERVER,
  },
  {
    name: 'WRITE_BUFFER_BYTES',
    defaultText: '67108864',
    description:
      'records the ingestor holds while the log refuses writes, then drops the oldest book records',
    apps: VENUES,
  },
  {
    name: 'LISTING_REPUBLISH_MS',
    defaultText: '600000 (10 min)',
    description:
      'the ingestor writes every market and venue record again this often, so one lost to log damage is repaired; 0 = never',
    apps: VENUES,
  },
  {
    name: 'LOG_LEVEL',
    defaultText: 'info',
    description: 'trace, debug, info, warn, error, fatal or silent',
    apps: LOG,
  },
  {
    name: 'LOG_FORMAT',
    defaultText: 'auto',
    description: 'auto: readable lines on a terminal, JSON lines otherwise; json; pretty',
    apps: LOG,
  },
  {
    name: 'LOG_SUMMARY_MS',
    defaultText: '60000',
    description: 'period of the one-line venue and book summary; 0 = none',
    apps: LOG,
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    defaultText: '8000',
    description:
      'a stop (SIGTERM) may take this long; then the process exits, counting what it could not finish',
    apps: LOG,
  },
  {
    name: 'METRICS_PORT',
    defaultText: 'unset',
    description:
      'serve Prometheus metrics at GET /metrics on this admin port (0 = any free port); off when unset',
    apps: LOG,
  },
  {
    name: 'METRICS_HOST',
    defaultText: '127.0.0.1',
    description: 'address the metrics port binds to',
    apps: LOG,
  },
];
