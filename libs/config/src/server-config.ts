import { deepFreeze } from './deep-freeze';
import { readHttpLimits, type HttpLimits } from './http-limits';
import { proxiesOf } from './keys/server-keys';
import { Reader } from './read-values';

/** Routing knobs the server applies and echoes (structurally @app/routing's RoutingConfig). */
export interface RoutingSettings {
  readonly staleBookMs: number;
  readonly stalenessPenaltyBps: number;
  readonly defaultTakerFeeRate: number;
}

/** The stream's global budget (docs/api.md "Stream budget"). */
export interface StreamBudgetSettings {
  readonly framesPerSec: number;
  readonly bytesPerSec: number;
}

/** The HTTP/WebSocket server's settings. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly rateLimitRps: number;
  readonly streamMaxPerIp: number;
  readonly heartbeatMs: number;
  /** STREAM_RESUME_WINDOW_MS: how long a closed v2 stream can be resumed. */
  readonly resumeWindowMs: number;
  /** Peer addresses whose x-forwarded-for is believed; empty = forwarded headers ignored. */
  readonly trustedProxies: readonly string[];
  readonly routing: RoutingSettings;
  /** JOURNAL_STRICT: no response leaves before its quote journal record is in the log. */
  readonly journalStrict: boolean;
  /** Timeouts and connection budgets. */
  readonly http: HttpLimits;
  /** JOURNAL_RESPONSES: journal records keep the whole response, not only its hash and length. */
  readonly journalResponses: boolean;
  /** STREAM_FRAMES_PER_SEC, STREAM_BYTES_PER_SEC. */
  readonly streamBudget: StreamBudgetSettings;
  /** JOURNAL_QUEUE_BYTES: journal records held in memory per journal topic while the log lags. */
  readonly journalQueueBytes: number;
  /** REDIS_URL: rate limit and stream cap shared through Redis; null = in this process. */
  readonly redisUrl: string | null;
  /** RECEIPTS, RECEIPT_KEY_FILE and RECEIPT_ORIGIN_NAME (docs/audit.md "Origins and keys"). */
  readonly receipts: ReceiptSettings;
}

/** Who signs this process's receipts and checkpoints, and whether answers carry receipts. */
export interface ReceiptSettings {
  /** RECEIPTS: GET/POST /route answers carry an x-quote-receipt header. */
  readonly attach: boolean;
  /** The signing key's PEM file; null = the key kept under DATA_DIR/receipts. */
  readonly keyFile: string | null;
  /** `route-service/<RECEIPT_ORIGIN_NAME>`. */
  readonly origin: string;
  /** CHECKPOINT_INTERVAL_MS: how often the transparency log signs a checkpoint. */
  readonly checkpointIntervalMs: number;
  /** MERGE_DELAY_MS: what every checkpoint promises (docs/audit.md "Merge delay"). */
  readonly mergeDelayMs: number;
  /** TLOG_PREFIX_LEAVES: leaves between the tlog's prefixes (docs/audit.md "Retention"). */
  readonly prefixEveryLeaves: number;
}

/** The server's settings from --port, --host and the environment; every bad key reported through `r`. */
export function readServer(r: Reader): ServerConfig {
  const host = r.text('--host')!;
  const trustedProxies = proxiesOf(r.text('TRUSTED_PROXY')!);
  const journalStrict = r.bool('JOURNAL_STRICT');
  const checkpointIntervalMs = r.int('CHECKPOINT_INTERVAL_MS');
  const mergeDelayMs = r.int('MERGE_DELAY_MS');
  // The promise must be keepable: a record waits up to one interval, plus its append and sync.
  if (mergeDelayMs < checkpointIntervalMs + 1_000)
    r.bad('MERGE_DELAY_MS', `must exceed CHECKPOINT_INTERVAL_MS (${checkpointIntervalMs}) by at least 1000`);
  return {
    port: r.int('--port'),
    host,
    rateLimitRps: r.int('RATE_LIMIT_RPS'),
    streamMaxPerIp: r.int('STREAM_MAX_PER_IP'),
    heartbeatMs: r.int('HEARTBEAT_MS'),
    resumeWindowMs: r.int('STREAM_RESUME_WINDOW_MS'),
    trustedProxies,
    routing: {
      staleBookMs: r.int('STALE_BOOK_MS'),
      stalenessPenaltyBps: r.decimal('STALENESS_PENALTY_BPS') as number,
      defaultTakerFeeRate: r.decimal('DEFAULT_TAKER_FEE_RATE') as number,
    },
    journalStrict,
    journalResponses: r.bool('JOURNAL_RESPONSES'),
    http: readHttpLimits(r),
    journalQueueBytes: r.int('JOURNAL_QUEUE_BYTES'),
    streamBudget: {
      framesPerSec: r.int('STREAM_FRAMES_PER_SEC'),
      bytesPerSec: r.int('STREAM_BYTES_PER_SEC'),
    },
    redisUrl: r.text('REDIS_URL'),
    receipts: {
      attach: r.bool('RECEIPTS'),
      keyFile: r.path('RECEIPT_KEY_FILE'),
      origin: `route-service/${r.text('RECEIPT_ORIGIN_NAME')!}`,
      checkpointIntervalMs,
      mergeDelayMs,
      prefixEveryLeaves: r.int('TLOG_PREFIX_LEAVES'),
    },
  };
}

/**
 * The server's settings with nothing set: the table's defaults, for servers built without
 * loadConfig (tests and benches spread it and override what they need).
 */
export const SERVER_DEFAULTS: ServerConfig = deepFreeze(readServer(new Reader('api', new Map(), {}, '.')));
