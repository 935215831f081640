#!/usr/bin/env node
/**
 * Counts the places a configuration default is written: for each key, the source files (apps,
 * libs, bench, bin, scripts; specs, test/ and generated files left out) holding a spelling of its
 * default in code (comments left out) within eight lines (WINDOW) of the key's name (env or flag) or its
 * config field name. The key list
 * is written out here, not read from libs/config, so one script measures any checkout.
 * `node scripts/config-default-places.mjs [--list]`; --list names the files per key.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How near (lines either side) a default must be written to the key's name to count. */
const WINDOW = Number(process.env.WINDOW ?? 8);
const MIB = 1024 * 1024;
const DAY = 86_400_000;
/** [env or flag name, config field names, default]. Keys whose default is "unset" or false are left out. */
const KEYS = [
  ['--port', ['port'], 3000],
  ['--host', ['host'], '::'],
  ['--speed', ['speed'], 1],
  ['DATA_DIR', ['dataDir', 'data-dir'], './.data'],
  ['LOG_RETENTION_MS', ['retention-ms', 'maxAgeMs'], 7 * DAY],
  ['LOG_RETENTION_BYTES', ['retention-bytes', 'maxBytes'], 512 * MIB],
  ['LOG_SEGMENT_BYTES', ['segmentBytes'], 64 * MIB],
  ['KAFKA_REPLICATION_FACTOR', ['replicationFactor', 'replication'], 1],
  ['KAFKA_MIN_INSYNC_REPLICAS', ['minInsyncReplicas', 'minInsync'], 1],
  ['INGESTOR_SESSION_MS', ['sessionMs'], 10_000],
  ['RATE_LIMIT_RPS', ['rateLimitRps'], 5],
  ['STREAM_MAX_PER_IP', ['streamMaxPerIp'], 10],
  ['STREAM_FRAMES_PER_SEC', ['framesPerSec'], 5000],
  ['STREAM_BYTES_PER_SEC', ['bytesPerSec'], 16 * MIB],
  ['STALE_BOOK_MS', ['staleBookMs'], 10_000],
  ['STALENESS_PENALTY_BPS', ['stalenessPenaltyBps'], 1],
  ['DEFAULT_TAKER_FEE_RATE', ['defaultTakerFeeRate'], 0.001],
  ['HEARTBEAT_MS', ['heartbeatMs'], 15_000],
  ['JOURNAL_QUEUE_BYTES', ['journalQueueBytes', 'maxQueuedBytes'], 64 * MIB],
  ['CONNECTIONS_MAX_PER_IP', ['connectionsPerIp'], 64],
  ['CONNECTIONS_MAX', ['connectionsMax'], 10_000],
  ['HEADERS_TIMEOUT_MS', ['headersTimeoutMs'], 10_000],
  ['REQUEST_TIMEOUT_MS', ['requestTimeoutMs'], 30_000],
  ['KEEP_ALIVE_TIMEOUT_MS', ['keepAliveTimeoutMs'], 5000],
  ['SEND_TIMEOUT_MS', ['sendTimeoutMs'], 30_000],
  ['WRITE_BUFFER_BYTES', ['writeBufferBytes', 'bufferBytes', 'DEFAULT_BUFFER_BYTES'], 64 * MIB],
  ['LISTING_REPUBLISH_MS', ['listingRepublishMs', 'DEFAULT_LISTING_REPUBLISH_MS'], 600_000],
  ['LOG_LEVEL', [], 'info'],
  ['LOG_FORMAT', [], 'auto'],
  ['LOG_SUMMARY_MS', ['summaryEveryMs'], 60_000],
  ['SHUTDOWN_TIMEOUT_MS', ['shutdownTimeoutMs'], 8000],
  ['METRICS_HOST', [], '127.0.0.1'],
];

/** A floor or ceiling on a value, not its default. */
const BOUND = /\bMath\.(max|min)\(|\b(MIN|MAX)_[A-Z0-9_]+\s*=/;
/** A line that gives `v` as a default. */
const DEFAULTING = (v) => new RegExp(`(default:|\\?\\?|\\|\\||[^=!<>]=)\\s*${v}(?![\\w.])`);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_');

/** Every way the code base writes this value. */
function spellings(v) {
  // A word ('info') only quoted; a path or an address anywhere, help texts included.
  if (typeof v === 'string')
    return [
      /^\w+$/.test(v) ? new RegExp(`['"\`]${v}['"\`]`) : new RegExp(`(?<![\\w./:-])${escape(v)}(?![\\w/:-])`),
    ];
  const out = new Set([String(v), grouped(v)]);
  for (const [unit, names] of [
    [MIB, ['1024 \\* 1024', 'MIB', 'MiB']],
    [1024, ['1024', 'KIB']],
    [DAY, ['DAY', '86_400_000']],
  ])
    if (v % unit === 0 && v / unit > 1) for (const name of names) out.add(`${v / unit} \\* ${name}`);
  const log2 = Math.log2(v);
  if (Number.isInteger(log2) && log2 > 4) {
    out.add(`2 \\*\\* ${log2}`);
    out.add(`1 << ${log2}`);
  }
  return [...out].map((s) => new RegExp(`(?<![\\w.])${s.replace(/\./g, '\\.')}(?![\\w.])`));
}

const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'apps', 'libs', 'bench', 'bin', 'scripts'],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((f) => /\.(ts|mjs|js)$/.test(f))
  // Left out: specs and test code (their inputs are theirs), the generated API client, this
  // script, and the quote record format's frozen table (libs/journal/src/compact.ts), which must
  // keep decoding old records whatever the defaults become.
  .filter(
    (f) =>
      !/(\.|-)spec\.ts$|\/test\/|^libs\/client\/src\/openapi\.ts$|^libs\/journal\/src\/compact\.ts$|config-default-places/.test(
        f,
      ),
  );
/**
 * A line's code: comments say a default, they do not set one (a doc comment that repeats a
 * default is still worth keeping true, but it is not a second place the value comes from).
 */
const code = (line) => (/^\s*(\/\/|\*|\/\*)/.test(line) ? '' : line.replace(/\s\/\/\s.*$/, ''));
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8').split('\n').map(code)]));

let total = 0;
const rows = [];
for (const [key, fields, value] of KEYS) {
  const names = [key, key.replace(/^--/, ''), ...fields].map(
    (n) => new RegExp(`(?<![\\w-])${escape(n)}(?![\\w-])`),
  );
  const values = spellings(value);
  const hits = [];
  for (const [file, lines] of text) {
    const found = lines.some((line, i) => {
      if (!values.some((v) => v.test(line))) return false;
      // A bound (Math.max(60_000, every), MIN_REBALANCE_MS = 10_000) is not a default, even when
      // it equals one.
      if (BOUND.test(line)) return false;
      // A small number (1, 5, 10) is everywhere in code (+ 1, exit(1), let rate = 1): it counts
      // only as a table's `default: 1`, or as `?? 1`, `|| 1`, `= 1` on the line that names the key.
      let w = WINDOW;
      if (typeof value === 'number' && value < 100) {
        if (!DEFAULTING(value).test(line)) return false;
        if (!/default:/.test(line)) w = 0;
      }
      const near = lines.slice(Math.max(0, i - w), i + w + 1).join('\n');
      return names.some((n) => n.test(near));
    });
    if (found) hits.push(file);
  }
  total += hits.length;
  rows.push([key, hits]);
}
for (const [key, hits] of rows)
  console.log(
    `${String(hits.length).padStart(2)}  ${key}${process.argv.includes('--list') ? `  ${hits.join(' ')}` : ''}`,
  );
console.log(`${total} places for ${KEYS.length} keys`);
