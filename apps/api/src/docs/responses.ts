import type { TSchema } from '@sinclair/typebox';
import { ErrorSchema } from './schemas';
import { ref, type JsonObject } from './json-schema';
import examplesJson from './examples.json';

const EXAMPLES = examplesJson as Record<string, unknown>;

/*
 * The HTTP headers and the statuses every operation shares, declared once. COMMON_ERRORS is added
 * to every operation of the OpenAPI document, so a status the HTTP gate gains is one edit here.
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
  etag: header('A strong validator of the document; send it back as If-None-Match.', { type: 'string' }),
  'cache-control': header('Documents may be cached for an hour.', { type: 'string' }),
  'retry-after': header('Whole seconds until the window closes, rounded up (at least 1).', {
    type: 'integer',
    minimum: 1,
  }),
};

const headerRefs = (names: readonly string[]): JsonObject =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Headers of every answer that passed the IPv4 rule. */
const GATED = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** A JSON answer with the gate's headers; `examples` are named examples from examples.json. */
export function jsonResponse(
  description: string,
  schema: TSchema | JsonObject,
  examples: Record<string, unknown> = {},
  extraHeaders: readonly string[] = [],
): JsonObject {
  const media: JsonObject = { schema: '$id' in schema ? ref(schema as TSchema) : schema };
  const named = Object.entries(examples);
  if (named.length > 0) media.examples = Object.fromEntries(named.map(([name, value]) => [name, { value }]));
  return {
    description,
    headers: headerRefs([...GATED, ...extraHeaders]),
    content: { 'application/json': media },
  };
}

/** An error answer (`{"error": string}`) with the gate's headers and captured examples. */
export function errorResponse(description: string, examples: Record<string, unknown> = {}): JsonObject {
  return jsonResponse(description, ErrorSchema, examples);
}

/**
 * The body Node and Fastify give their own refusals today (431; 414 for a path parameter over
 * Fastify's 100-character cap): `error` plus their own fields, without the gate's headers.
 */
const FRAMEWORK_ERROR: JsonObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    message: { type: 'string' },
    code: { type: 'string' },
    statusCode: { type: 'integer' },
  },
  additionalProperties: false,
};

/** A 414 that is the parser's (query string, with the gate's headers) or Fastify's (a path parameter over 100 characters, without them). */
export const FRAMEWORK_414: JsonObject = {
  description:
    "The query string is longer than 4096 characters, or a path parameter longer than 100 (the latter answered by Fastify before any check, with its own body and without the gate's headers).",
  headers: Object.fromEntries(GATED.map((n) => [n, { ...(HEADERS[n] as JsonObject), required: false }])),
  content: { 'application/json': { schema: { anyOf: [ref(ErrorSchema), FRAMEWORK_ERROR] } } },
};

/** Statuses any operation can answer, before its own handler runs (the gate). */
export const COMMON_ERRORS: Record<string, JsonObject> = {
  '403': {
    description:
      'The client address is not IPv4 (after TRUSTED_PROXY). Not counted by the rate limit; carries no rate-limit or request-id headers.',
    content: {
      'application/json': {
        schema: ref(ErrorSchema),
        examples: { ipv4_only: { value: { error: 'ipv4_only' } } },
      },
    },
  },
  // Node refuses these before Fastify routes the request, so no hook has added the gate's headers.
  '431': {
    description:
      "The request line and headers together exceed Node's 16 KiB limit (a very long URL counts too). Answered before any other check, without the gate's headers.",
    content: { 'application/json': { schema: FRAMEWORK_ERROR } },
  },
  '429': jsonResponse(
    'Over the per-IP rate limit (RATE_LIMIT_RPS requests per 1000 ms window, shared by every endpoint). Retry after retry-after seconds.',
    ErrorSchema,
    EXAMPLES.rate_limited === undefined ? {} : { rate_limited: EXAMPLES.rate_limited },
    ['retry-after'],
  ),
};

/** The components/headers section. */
export function headerComponents(): Record<string, JsonObject> {
  return HEADERS;
}
