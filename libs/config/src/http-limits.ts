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

/** The defaults, also what a ServerConfig without `http` gets. */
export const HTTP_LIMIT_DEFAULTS: HttpLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  sendTimeoutMs: 30_000,
  connectionsPerIp: 64,
  connectionsMax: 10_000,
});

/** Read the HTTP limits from the environment; every bad key is reported through `r`. */
export function readHttpLimits(r: Reader): HttpLimits {
  const d = HTTP_LIMIT_DEFAULTS;
  const ms = (key: string, fallback: number, min: number): number =>
    r.int(key, r.envValue(key), fallback, min, 3_600_000);
  const limits: HttpLimits = {
    headersTimeoutMs: ms('HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 100),
    requestTimeoutMs: ms('REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 100),
    keepAliveTimeoutMs: ms('KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 100),
    sendTimeoutMs: ms('SEND_TIMEOUT_MS', d.sendTimeoutMs, 100),
    connectionsPerIp: r.int(
      'CONNECTIONS_MAX_PER_IP',
      r.envValue('CONNECTIONS_MAX_PER_IP'),
      d.connectionsPerIp,
      1,
      1_000_000,
    ),
    connectionsMax: r.int('CONNECTIONS_MAX', r.envValue('CONNECTIONS_MAX'), d.connectionsMax, 1, 1_000_000),
  };
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
