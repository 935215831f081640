import { isIP } from 'node:net';
import { decimal, int, text, type AppName, type ConfigKey } from './config-key';

const MIB = 1024 * 1024;
const SERVER: readonly AppName[] = ['api', 'start'];
/** replay's backtest takes the routing settings as flags (its own solve, not the server's). */
const BACKTEST: readonly AppName[] = ['replay'];

/** TRUSTED_PROXY as written: addresses, comma-separated, blanks dropped. */
export function proxiesOf(raw: string): string[] {
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** `redis://[user:password@]host:port[/db]` (or rediss:// for TLS); the password never echoed. */
function redisCheck(raw: string): readonly string[] {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '')
    return [`must be redis://host:port, got '${raw.replace(/\/\/[^@/]*@/, '//***@')}'`];
  return [];
}

/** A receipt origin's name: it ends `route-service/<name>`, a signed-note key name. */
export function originNameCheck(raw: string): readonly string[] {
  return /^[A-Za-z0-9._-]{1,64}$/.test(raw) ? [] : [`must be 1-64 of A-Z a-z 0-9 . _ -, got '${raw}'`];
}

/** The HTTP/WebSocket server: limits, stream budget, routing settings and the quote journal. */
export const SERVER_KEYS: readonly ConfigKey[] = [
  {
    env: { name: 'RATE_LIMIT_RPS', apps: SERVER },
    value: int(1, 1_000_000_000),
    default: 5,
    help: 'requests per 1000 ms window per client IP',
    doc: 'Requests per 1000 ms fixed window per client IP (schemathesis runs the demo with 1000000).',
  },
  {
    env: { name: 'REDIS_URL', apps: SERVER },
    value: text(redisCheck),
    default: null,
    help: 'redis://host:port : the rate limit and the stream cap shared by every API replica; unset = kept in this process',
    doc: '`redis://host:port`: the rate limit and the stream cap shared by every API replica; unset = kept in the process. Redis down = each replica limits alone (fail open).',
  },
  {
    env: { name: 'STREAM_MAX_PER_IP', apps: SERVER },
    value: int(1, 1_000_000),
    default: 10,
    help: 'concurrent stream sockets per IP',
    doc: 'Concurrent stream sockets per IP.',
  },
  {
    env: { name: 'STREAM_FRAMES_PER_SEC', apps: SERVER },
    value: int(1, 100_000_000),
    default: 5000,
    help: "stream frames a second in all (a tick's solve counts as 5); over it frames wait their turn, fairly by address, the newest state kept",
    doc: 'Stream frames a second in all (a tick\'s solve counts as 5); over it frames wait their turn, fairly by address, the newest state kept (docs/api.md "Stream budget").',
  },
  {
    env: { name: 'STREAM_BYTES_PER_SEC', apps: SERVER },
    value: int(64 * 1024, 2 ** 40),
    default: 16 * MIB,
    note: '16 MiB',
    help: 'stream frame bytes a second in all, likewise',
    doc: 'Stream frame bytes a second in all, likewise.',
  },
  {
    env: { name: 'STALE_BOOK_MS', apps: SERVER },
    flag: { name: 'stale-book-ms', arg: '<ms>', apps: BACKTEST, help: 'freshness cutoff' },
    value: int(1, 86_400_000),
    default: 10_000,
    help: 'freshness cutoff; older books never route',
    doc: 'Freshness cutoff; older books never route.',
  },
  {
    env: { name: 'STALENESS_PENALTY_BPS', apps: SERVER },
    flag: {
      name: 'staleness-penalty-bps',
      arg: '<bps>',
      apps: BACKTEST,
      help: 'ranking markdown per sqrt second of book age',
    },
    value: decimal(0, 10_000),
    default: 1,
    help: 'ranking markdown per sqrt second of book age',
    doc: 'Ranking markdown per square root of a second of book age.',
  },
  {
    env: { name: 'DEFAULT_TAKER_FEE_RATE', apps: SERVER },
    flag: { name: 'default-taker-fee-rate', arg: '<rate>', apps: BACKTEST },
    value: decimal(0, 0.5),
    default: 0.001,
    help: 'fee of a venue that publishes none',
    doc: 'Fee of a venue that publishes none.',
  },
  {
    env: { name: 'HEARTBEAT_MS', apps: SERVER },
    value: int(10, 3_600_000),
    default: 15_000,
    help: 'stream ping interval',
    doc: 'Stream ping interval; two missed pongs terminate the socket.',
  },
  {
    env: { name: 'STREAM_RESUME_WINDOW_MS', apps: SERVER },
    value: int(1_000, 86_400_000),
    default: 120_000,
    help: 'how long after a routestream.v2 stream closes a reconnecting client can resume it and be told what it missed',
    doc: 'How long after a `routestream.v2` stream closes a reconnecting client can resume it and be told exactly how many frames it missed (docs/api.md "Resume"); the welcome message states it.',
  },
  {
    env: { name: 'TRUSTED_PROXY', apps: SERVER },
    value: text((raw) =>
      proxiesOf(raw)
        .filter((p) => isIP(p) === 0)
        .map((p) => `'${p}' is not an IP address`),
    ),
    default: '',
    shown: 'unset',
    help: 'comma-separated proxies whose x-forwarded-for is believed',
    doc: 'Comma-separated proxy addresses whose `x-forwarded-for` is believed.',
  },
  {
    env: { name: 'JOURNAL_STRICT', apps: SERVER },
    value: { type: 'bool' },
    default: false,
    help: 'true: no quote leaves before its journal record is in the log',
    doc: '`true`: no quote leaves before its journal record is in the log.',
  },
  {
    env: { name: 'JOURNAL_QUEUE_BYTES', apps: SERVER },
    value: int(MIB, 2 ** 40),
    default: 64 * MIB,
    note: '64 MiB',
    help: 'journal records held in memory per journal topic (quotes, stream) while the log lags or refuses; over it new ones wait, or are refused while appends fail',
    doc: 'Journal records held in memory per journal topic (quotes, stream) while the log lags or refuses appends; over it new ones wait, or are refused (503) while appends fail.',
  },
  {
    env: { name: 'JOURNAL_RESPONSES', apps: SERVER },
    value: { type: 'bool' },
    default: false,
    help: 'true: journal records keep the whole response, not only its hash and length',
    doc: '`true`: journal records keep the whole response (~12-17 KB) besides its hash and length (~410 B).',
  },
  {
    env: { name: 'RECEIPT_KEY_FILE', apps: SERVER },
    value: { type: 'path', missing: 'no such file' },
    default: null,
    shown: 'under DATA_DIR',
    help: 'Ed25519 private key (PKCS#8 PEM) signing quote receipts and checkpoints; unset = one made under DATA_DIR/receipts, which proves nothing against whoever holds DATA_DIR',
    doc: 'Ed25519 key (PKCS#8 PEM) signing receipts and checkpoints (docs/audit.md); unset = one made under `DATA_DIR/receipts/`, proving nothing against whoever holds DATA_DIR: keep it elsewhere.',
  },
  {
    env: { name: 'RECEIPTS', apps: SERVER },
    value: { type: 'bool' },
    default: false,
    help: 'true: every GET/POST /route quote carries a signed x-quote-receipt header (about 70 us more server CPU per quote, 18 of it the signature)',
    doc: '`true`: every GET/POST /route quote carries a signed `x-quote-receipt` header (docs/audit.md "The receipt"): one Ed25519 signature and a hash of the journal record per quote and the transparency log\'s checkpoints, about 70 us of server CPU per GET /route (1.3x), 18 of it the signature (BENCHMARKS.md "Receipts made at the turn\'s end").',
  },
  {
    env: { name: 'RECEIPT_ORIGIN_NAME', apps: SERVER },
    value: text(originNameCheck),
    default: 'main',
    help: "this process's log origin is route-service/<name>; each replica over one log needs its own",
    doc: "This process's origin `route-service/<name>` (1-64 of `A-Z a-z 0-9 . _ -`): the name its receipts and checkpoints are signed under. Each API replica over one log needs its own.",
  },
  {
    env: { name: 'CHECKPOINT_INTERVAL_MS', apps: SERVER },
    value: int(100, 600_000),
    default: 2_000,
    help: 'with RECEIPTS=true: how often the transparency log signs a checkpoint of what is durable',
    doc: 'With `RECEIPTS=true`: how often the origin\'s transparency log signs a checkpoint of the journal records that are durable (docs/audit.md "Checkpoints").',
  },
  {
    env: { name: 'MERGE_DELAY_MS', apps: SERVER },
    value: int(1_000, 86_400_000),
    default: 10_000,
    help: 'with RECEIPTS=true: every checkpoint promises to hold each quote calculated this long before it; more than CHECKPOINT_INTERVAL_MS plus a second',
    doc: 'With `RECEIPTS=true`: the merge delay every checkpoint promises: it holds each quote calculated at least this long before it was signed (docs/audit.md "Merge delay"). Must exceed `CHECKPOINT_INTERVAL_MS` by a second.',
  },
  {
    env: { name: 'TLOG_PREFIX_LEAVES', apps: SERVER },
    value: int(1, 1_000_000_000),
    default: 1_048_576,
    help: 'with RECEIPTS=true: after this many new leaves the tlog gets a prefix, before which its entries may be dropped',
    doc: 'With `RECEIPTS=true`: each time the origin\'s tree has grown by this many leaves, its `tlog` gets a prefix entry (docs/audit.md "Retention"): the entries before it may then be dropped without making a later proof or a kept checkpoint unverifiable, and a restart reads from it.',
  },
  {
    env: { name: 'CONNECTIONS_MAX_PER_IP', apps: SERVER },
    value: int(1, 1_000_000),
    default: 64,
    help: 'open connections (HTTP and streams) per client IP; over it 429, closed',
    doc: 'Open connections (HTTP and streams) per client IP; over it 429, closed.',
  },
  {
    env: { name: 'CONNECTIONS_MAX', apps: SERVER },
    value: int(1, 1_000_000),
    default: 10_000,
    help: 'open connections in all; at it a newcomer displaces the connection that held its slot longest while sending least (429 when none may go)',
    doc: 'Open connections in all; at it a newcomer displaces the connection that held its slot longest while sending least (429 when none may go).',
  },
  {
    env: { name: 'HEADERS_TIMEOUT_MS', apps: SERVER },
    value: int(100, 3_600_000),
    default: 10_000,
    help: 'request line and headers must arrive within this, else 408',
    doc: 'Request line and headers must arrive within this, else 408.',
  },
  {
    env: { name: 'REQUEST_TIMEOUT_MS', apps: SERVER },
    value: int(100, 3_600_000),
    default: 30_000,
    help: 'the whole request, body included, within this, else 408',
    doc: 'The whole request, body included, within this, else 408.',
  },
  {
    env: { name: 'KEEP_ALIVE_TIMEOUT_MS', apps: SERVER },
    value: int(100, 3_600_000),
    default: 5000,
    help: 'an idle keep-alive connection is closed after this',
    doc: 'An idle keep-alive connection is closed after this.',
  },
  {
    env: { name: 'SEND_TIMEOUT_MS', apps: SERVER },
    value: int(100, 3_600_000),
    default: 30_000,
    help: 'a connection whose client stops reading an answer is closed after this',
    doc: 'A connection whose client stops reading an answer is closed after this.',
  },
];
