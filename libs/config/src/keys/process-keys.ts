import { decimal, hostCheck, int, text, type AppName, type ConfigKey } from './config-key';

const DAY = 86_400_000;
const MIB = 1024 * 1024;

const SERVICES: readonly AppName[] = ['api', 'start', 'ingestor'];
/** The commands that open the event log: the services, and replay's commands (read-only). */
const LOG_READERS: readonly AppName[] = [...SERVICES, 'replay'];
const SERVER: readonly AppName[] = ['api', 'start'];
const FEEDERS: readonly AppName[] = ['start', 'ingestor'];

/** pino's level names, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** KAFKA_BROKERS as written: `host:port` entries, comma-separated. */
export function brokersOf(raw: string): string[] {
  return raw.split(',').map((b) => b.trim());
}

/** The service processes' own flags, in the order help lists them. */
export const FLAG_KEYS: readonly ConfigKey[] = [
  {
    flag: { name: 'port', arg: '<n>', apps: SERVER },
    value: int(0, 65535),
    default: 3000,
    help: 'HTTP port; 0 picks a free one (printed on stdout)',
    doc: '`0` picks a free port; the process prints `{"message":"listening","port":N,...}` on stdout.',
  },
  {
    flag: { name: 'host', arg: '<addr>', apps: SERVER },
    value: text(hostCheck),
    default: '::',
    help: 'listen address (dual-stack by default)',
    doc: 'Dual-stack by default so IPv6 clients get the `ipv4_only` answer.',
  },
  {
    flag: { name: 'now', arg: '<epochMs>', apps: SERVER },
    value: int(0, 8_640_000_000_000_000),
    default: null,
    shown: 'wall clock live, replayed time in replay',
    help: 'pin the service clock (tests, audits)',
    doc: 'Pins the service clock (tests, audits). In replay mode the clock is otherwise the newest `receivedAt` fed.',
  },
  {
    flag: { name: 'replay', arg: '<file-or-dir>', apps: FEEDERS },
    value: { type: 'path', missing: 'no such file or directory' },
    default: null,
    shown: 'live venues',
    help: 'feed recorded event records (JSON Lines; a directory = every *.jsonl in it, merged by receivedAt) instead of connecting to venues',
    doc: 'Feed recorded event records (JSON Lines; a directory means every `*.jsonl` in it, sorted by name, merged by `receivedAt`) instead of connecting to venues. Unreadable lines are skipped with a warning naming file and line.',
  },
  {
    flag: { name: 'speed', arg: '<n|max>', apps: FEEDERS },
    value: decimal(1e-6, 1e9, 'max'),
    default: 1,
    help: 'replay pacing: 1 = recorded timing, n = n times faster, max = as fast as possible (only with --replay)',
    doc: 'Replay pacing: 1 = recorded timing, n = n times faster, `max` = as fast as possible (the server starts answering once the recording is loaded). Only with `--replay`.',
  },
  {
    flag: { name: 'loop', arg: '', apps: FEEDERS },
    value: { type: 'switch' },
    default: false,
    shown: 'off',
    help: 'play the recording again and again, time-shifted so books stay fresh (only with --replay at a paced --speed; npm run demo sets it)',
    doc: 'With `--replay` and a numeric `--speed`: play the recording again and again, time-shifted and re-sequenced, starting after the newest record already in the log (the ingestor alone: and no earlier than now, for an API on the wall clock; `npm run demo` uses it).',
  },
];

/** Where the event log is and how much of it is kept. */
export const LOG_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'KAFKA_BROKERS', apps: LOG_READERS },
    value: text((raw) =>
      brokersOf(raw)
        .filter((b) => !/^[^\s:,]+:\d{1,5}$/.test(b))
        .map((b) => `'${b}' is not host:port`),
    ),
    default: null,
    help: 'host:port,... : Kafka instead of the embedded log',
    doc: '`host:port,...`: use Kafka instead of the embedded log.',
  },
  {
    env: { name: 'DATA_DIR', apps: LOG_READERS },
    flag: { name: 'data-dir', arg: '<dir>', apps: ['replay'], help: 'embedded event log directory' },
    value: { type: 'path' },
    default: './.data',
    help: 'where the embedded log lives; ./.data-replay for start --replay (the demo never mixes with the live log)',
    doc: 'Where the embedded log lives; `./.data-replay` for `npm start -- --replay` (the demo), so it never mixes with the live log. `replay` commands read it too, `--data-dir` winning, and never create it.',
  },
  {
    env: { name: 'LOG_RETENTION_MS', apps: SERVICES },
    flag: {
      name: 'retention-ms',
      arg: '<ms>',
      apps: SERVICES,
      help: 'event log retention by age (LOG_RETENTION_MS); 0 = no age bound. Older asOf/replay instants are refused, naming the horizon',
      doc: 'Event log retention by age (`LOG_RETENTION_MS`); `0` = no age bound. asOf, `replay quote` and backtests before the horizon are refused, naming it.',
    },
    value: int(0, 3650 * DAY),
    default: 7 * DAY,
    note: '7 days',
    help: 'drop event log segments older than this (books, quotes; each book keeps its latest snapshot); 0 = off; --retention-ms wins',
    doc: 'Drop `books`/`quotes` segments older than this (each book keeps its latest snapshot); `0` = off. `--retention-ms` wins.',
  },
  {
    env: { name: 'LOG_RETENTION_BYTES', apps: SERVICES },
    flag: {
      name: 'retention-bytes',
      arg: '<n>',
      apps: SERVICES,
      help: 'event log retention by size, per topic partition (LOG_RETENTION_BYTES); 0 = no size bound',
      doc: 'Event log retention by size per topic partition (`LOG_RETENTION_BYTES`); `0` = no size bound.',
    },
    value: int(0, 2 ** 50),
    default: 512 * MIB,
    note: '512 MiB',
    help: 'per topic partition, drop the oldest segments above this size; 0 = off; --retention-bytes wins',
    doc: 'Per topic partition, drop the oldest segments above this (about 6 GiB in all at the default); `0` = off. `--retention-bytes` wins.',
  },
  {
    env: { name: 'LOG_SEGMENT_BYTES', apps: SERVICES },
    value: int(MIB, 2 ** 32 - 1),
    default: 64 * MIB,
    note: '64 MiB',
    help: 'embedded log segment size: the unit retention removes',
    doc: 'Embedded log segment size: the unit retention removes (docs/operations-log.md "Retention").',
  },
  {
    env: { name: 'TOPIC_PREFIX', apps: LOG_READERS },
    // Kafka's legal topic characters; the embedded log also uses the name as a directory.
    value: text((v) =>
      /^[A-Za-z0-9._-]{0,200}$/.test(v) ? [] : [`must be up to 200 of [A-Za-z0-9._-], got '${v}'`],
    ),
    default: '',
    shown: 'unset',
    help: 'topics become <prefix>.books etc.',
    doc: 'Topics become `<prefix>.books` etc. (Kafka and embedded log alike).',
  },
  {
    env: { name: 'KAFKA_REPLICATION_FACTOR', apps: LOG_READERS },
    value: int(1, 32),
    default: 1,
    help: 'replicas of each topic this service creates on Kafka (3 on a 3-broker cluster)',
    doc: 'Replicas of each topic the service creates on Kafka (3 on a 3-broker cluster: docs/operations-fleet.md).',
  },
  {
    env: { name: 'KAFKA_MIN_INSYNC_REPLICAS', apps: LOG_READERS },
    value: int(1, 32),
    default: 1,
    help: 'min.insync.replicas of the topics it creates: an append is acknowledged once this many replicas have it (2 with 3 replicas)',
    doc: '`min.insync.replicas` of the topics it creates: an append is acknowledged once this many replicas have it (2 with 3 replicas).',
  },
];

/** The console, the metrics port and the stop deadline of every service process. */
export const OBSERVABILITY_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'LOG_LEVEL', apps: SERVICES },
    value: text((v) =>
      (LOG_LEVELS as readonly string[]).includes(v)
        ? []
        : [`must be one of ${LOG_LEVELS.join(', ')}, got '${v}'`],
    ),
    default: 'info',
    help: 'trace, debug, info, warn, error, fatal or silent',
    doc: 'trace, debug, info, warn, error, fatal or silent.',
  },
  {
    env: { name: 'LOG_FORMAT', apps: SERVICES },
    value: text((v) =>
      ['auto', 'json', 'pretty'].includes(v) ? [] : [`must be auto, json or pretty, got '${v}'`],
    ),
    default: 'auto',
    help: 'auto: readable lines on a terminal, JSON lines otherwise; json; pretty',
    doc: '`auto`: readable lines on a terminal, JSON lines otherwise; `json`, `pretty`.',
  },
  {
    env: { name: 'LOG_SUMMARY_MS', apps: SERVICES },
    value: int(0, 86_400_000),
    default: 60_000,
    help: 'period of the one-line venue and book summary; 0 = none',
    doc: 'Period of the one-line venue and book summary (first after 10 s); `0` = none.',
  },
  {
    env: { name: 'SHUTDOWN_TIMEOUT_MS', apps: SERVICES },
    // Inside Docker's 10 s grace by default.
    value: int(100, 3_600_000),
    default: 8000,
    help: 'a stop (SIGTERM) may take this long; then the process exits, counting what it could not finish',
    doc: 'A stop (SIGTERM) may take this long; then the process exits, counting what it could not finish (docs/deploy.md).',
  },
  {
    env: { name: 'METRICS_PORT', apps: SERVICES },
    value: int(0, 65535),
    default: null,
    help: 'serve Prometheus metrics at GET /metrics on this admin port (0 = any free port); off when unset',
    doc: 'Serve Prometheus metrics at `GET /metrics` on this admin port (`0` = any free port). Off when unset.',
  },
  {
    env: { name: 'METRICS_HOST', apps: SERVICES },
    // Metrics are not for the public.
    value: text(hostCheck),
    default: '127.0.0.1',
    help: 'address the metrics port binds to',
    doc: 'Address the metrics port binds to.',
  },
];
