import { configKey } from './keys/keys';
import type { Reader } from './read-values';

/**
 * Timeouts and connection budgets of the HTTP server (docs/api.md "Limits and timeouts"): what
 * keeps one client from holding sockets, file descriptors or memory that others need.
 */
export interface HttpLimits {
  /** HEADERS_TIMEOUT_MS: request line and headers must arrive within this, else 408. */
  readonly headersTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: the whole request, body included, from its first byte, else 408. */
  readonly requestTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** SEND_TIMEOUT_MS: a connection whose client reads none of a finished response for this long is closed. */
  readonly sendTimeoutMs: number;
  /** CONNECTIONS_MAX_PER_IP: open connections (HTTP and streams) per client address, else 429. */
  readonly connectionsPerIp: number;
  /** CONNECTIONS_MAX: open connections in all; at it a newcomer displaces the least active (docs/api.md). */
  readonly connectionsMax: number;
}

/** Each field's key in the table. */
const KEYS: Readonly<Record<keyof HttpLimits, string>> = {
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  sendTimeoutMs: 'SEND_TIMEOUT_MS',
  connectionsPerIp: 'CONNECTIONS_MAX_PER_IP',
  connectionsMax: 'CONNECTIONS_MAX',
};

const each = <T>(f: (key: string) => T): Record<keyof HttpLimits, T> =>
  Object.fromEntries(Object.entries(KEYS).map(([field, key]) => [field, f(key)])) as Record<
    keyof HttpLimits,
    T
  >;

/** The table's defaults, for servers built without loadConfig (benches, tests). */
export const HTTP_LIMIT_DEFAULTS: HttpLimits = Object.freeze(each((key) => configKey(key).default as number));

/** Read the HTTP limits from the environment; every bad key is reported through `r`. */
export function readHttpLimits(r: Reader): HttpLimits {
  const limits: HttpLimits = each((key) => r.int(key));
  // Node refuses a headers timeout longer than the request timeout; so does the config.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    r.bad(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_TIMEOUT_MS (${limits.headersTimeoutMs} > ${limits.requestTimeoutMs})`,
    );
  if (limits.connectionsPerIp > limits.connectionsMax)
    r.bad(
      'CONNECTIONS_MAX_PER_IP',
      `must not exceed CONNECTIONS_MAX (${limits.connectionsPerIp} > ${limits.connectionsMax})`,
    );
  return limits;
}
