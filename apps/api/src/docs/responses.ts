import type { TSchema } from '@sinclair/typebox';
import { SERVER_DEFAULTS } from '@app/config';
import { ErrorSchema } from './schemas';
import { ref, type JsonObject } from './json-schema';
import examplesJson from './examples.json';

const EXAMPLES = examplesJson as Record<string, unknown>;

/*
 * The HTTP headers and the statuses every operation shares, declared once. GATE_RESPONSES are
 * referenced by every operation of the OpenAPI document, so a status the HTTP gate gains is one
 * edit here.
 */

const header = (description: string, schema: JsonObject, required = true): JsonObject => ({
  description,
  required,
  schema,
});

/** Response headers, by the name the document lists them under. */
export const HEADERS: Record<string, JsonObject> = {
  'x-request-id': header(
    'The request x-request-id when it matched ^[\\w.-]{1,200}$, otherwise a minted UUID. RouteResults carry it as requestId.',
    { type: 'string', pattern: '^[\\w.-]{1,200}$' },
  ),
  'x-ratelimit-limit': header(
    'Requests allowed per client IPv4 address per 1000 ms window (RATE_LIMIT_RPS).',
    {
      type: 'integer',
      minimum: 1,
    },
  ),
  'x-ratelimit-remaining': header('Requests left in the current window.', { type: 'integer', minimum: 0 }),
  'x-ratelimit-reset': header('Whole seconds until the window closes, rounded up (at least 1).', {
    type: 'integer',
    minimum: 1,
  }),
  'x-quote-receipt': header(
    'The quote receipt, when the operator set RECEIPTS=true: base64url of a JSON object signing the SHA-256 and length of exactly these body bytes with the origin\'s Ed25519 key (GET /keys); docs/audit.md "The receipt" defines it and how to verify it.',
    { type: 'string', pattern: '^[A-Za-z0-9_-]{1,2048}$' },
    false,
  ),
  etag: header('A strong validator of the document; send it back as If-None-Match.', { type: 'string' }),
  'cache-control': header('Documents may be cached for an hour.', { type: 'string' }),
  'retry-after': header(
    'Whole seconds until the rate-limit window closes, rounded up (at least 1); 1 for the connection budget.',
    { type: 'integer', minimum: 1 },
  ),
  allow: header('The methods this path takes, e.g. GET, HEAD, POST.', {
    type: 'string',
    pattern: '^[A-Z]+(, [A-Z]+)*$',
  }),
  upgrade: header('websocket: the protocol /stream/route speaks.', { type: 'string', const: 'websocket' }),
  'sec-websocket-version': header(
    'The WebSocket versions the server speaks, when the handshake named another.',
    { type: 'string', const: '13, 8' },
    false,
  ),
};

const headerRefs = (names: readonly string[]): JsonObject =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Headers of every answer that passed the IPv4 rule. */
const GATED = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** The gate's headers (request id, rate limit) as header references. */
export function gateHeaders(): JsonObject {
  return headerRefs(GATED);
}

/** A JSON answer with the gate's headers; `examples` are named examples from examples.json. */
export function jsonResponse(
  description: string,
  schema: TSchema | JsonObject,
  examples: Record<string, unknown> = {},
  extraHeaders: readonly string[] = [],
  gated: readonly string[] = GATED,
): JsonObject {
  const media: JsonObject = { schema: '$id' in schema ? ref(schema as TSchema) : schema };
  const named = Object.entries(examples);
  if (named.length > 0) media.examples = Object.fromEntries(named.map(([name, value]) => [name, { value }]));
  return {
    description,
    headers: headerRefs([...gated, ...extraHeaders]),
    content: { 'application/json': media },
  };
}

/** An error answer (`{"error": string}`) with the gate's headers and captured examples. */
export function errorResponse(description: string, examples: Record<string, unknown> = {}): JsonObject {
  return jsonResponse(description, ErrorSchema, examples);
}

/** Headers of an answer the IPv4 rule refused: it is not counted, so only x-request-id. */
const REQUEST_ID_ONLY = ['x-request-id'];

const named = (...names: string[]): Record<string, unknown> =>
  Object.fromEntries(names.filter((n) => EXAMPLES[n] !== undefined).map((n) => [n, EXAMPLES[n]]));

/** An error answer with `headers` (gate headers by default) and no examples. */
function gateError(description: string, extraHeaders: readonly string[] = [], examples = {}): JsonObject {
  return jsonResponse(description, ErrorSchema, examples, extraHeaders);
}

/**
 * What the front door and the gate answer before any route (apps/api/src/edge): one reusable
 * response per status under components/responses, referenced by every operation (an operation's
 * own response of the same status replaces the reference), and the answers to requests that name
 * no operation at all (an unknown path, a method no route takes, what did not parse as HTTP).
 */
export const GATE_RESPONSES: Record<string, { readonly status: string; readonly response: JsonObject }> = {
  BadRequest: {
    status: '400',
    response: gateError(
      'The request is malformed before any parameter is read: HTTP/1.1 without a Host header or any request with two, a malformed percent-escape in the path, a request that is not HTTP/1.x (an HTTP/2 preface included), or a bad WebSocket handshake on /stream/route.',
    ),
  },
  Ipv4Only: {
    status: '403',
    response: jsonResponse(
      'The client address is not IPv4 (after TRUSTED_PROXY): answered first, whatever else is wrong, and not counted by the rate limit, so it carries x-request-id but no rate-limit headers.',
      ErrorSchema,
      { ipv4_only: { error: 'ipv4_only' } },
      [],
      REQUEST_ID_ONLY,
    ),
  },
  NotFound: {
    status: '404',
    response: gateError('No endpoint has this path.', [], named('not_found')),
  },
  MethodNotAllowed: {
    status: '405',
    response: gateError(
      'The answer to a method this path does not take (any method but the operations listed for it): the allow header lists the ones it takes. A method token the server does not know at all, and CONNECT, get allow: GET, HEAD, POST.',
      ['allow'],
      named('method_not_allowed'),
    ),
  },
  RequestTimeout: {
    status: '408',
    response: gateError(
      `The request headers did not arrive within HEADERS_TIMEOUT_MS (${SERVER_DEFAULTS.http.headersTimeoutMs} by default), or the whole request, body included, within REQUEST_TIMEOUT_MS (${SERVER_DEFAULTS.http.requestTimeoutMs}). The connection is closed.`,
    ),
  },
  ContentTooLarge: {
    status: '413',
    response: gateError(
      'The body is larger than 64 KiB (refused before it is sent when announced with Expect: 100-continue, on any path), or its chunk extensions are too large.',
      [],
      named('body_too_large'),
    ),
  },
  UriTooLong: {
    status: '414',
    response: gateError(
      'The path is longer than 1024 characters, one path segment longer than 100, or the query string longer than 4096 (checked before any routing).',
      [],
      named('query_too_long'),
    ),
  },
  RateLimited: {
    status: '429',
    response: gateError(
      'Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint; retry-after says when the window closes), or over the connection budget (CONNECTIONS_MAX_PER_IP open connections per address, CONNECTIONS_MAX in all; retry-after 1, and the connection is closed).',
      ['retry-after'],
      named('rate_limited'),
    ),
  },
  HeadersTooLarge: {
    status: '431',
    response: gateError(
      'The request line and headers together are larger than 16 KiB. The connection is closed.',
    ),
  },
};

/** The statuses every operation can answer: references to GATE_RESPONSES (not 404, which no operation path answers). */
export function gateResponseRefs(): Record<string, JsonObject> {
  const refs: Record<string, JsonObject> = {};
  for (const [name, { status }] of Object.entries(GATE_RESPONSES))
    if (status !== '404') refs[status] = { $ref: `#/components/responses/${name}` };
  return refs;
}

/** The components/responses section. */
export function responseComponents(): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(GATE_RESPONSES).map(([name, r]) => [name, r.response]));
}

/** The components/headers section. */
export function headerComponents(): Record<string, JsonObject> {
  return HEADERS;
}
