import { REQUEST_LIMITS } from './limits';
import { ROUTE_PARAMS, type ParamSpec } from './params';
import { TEXT_PATTERNS, numberTextPattern } from './text-patterns';

/** A JSON Schema (OpenAPI 3.1 dialect) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

const text = (maxLength: number = REQUEST_LIMITS.valueChars): JsonSchema => ({ type: 'string', maxLength });

/**
 * The OpenAPI query parameters of GET /route (and the stream's, with `mode`), generated from the
 * one parameter table, so the document cannot drift from the parser. Rules that tie parameters
 * together (exactly one amount, from differs from to, each holding once, asOf within the log's
 * reach, the 4096-character query string) cannot be stated per parameter; the descriptions say them.
 */
export function routeQueryParameters(mode: 'rest' | 'stream'): JsonSchema[] {
  return ROUTE_PARAMS.filter((p) => p.modes.includes(mode)).map((p) => ({
    name: p.name,
    in: 'query',
    required: p.required === true,
    description: p.description,
    ...(p.kind === 'list' ? { style: 'form', explode: false } : {}),
    schema: { ...querySchema(p), ...docDefault(p, mode) },
    // An asOf example would be pre-filled by try-it consoles and refused by a server whose log starts later.
    ...(p.example === undefined || p.kind === 'epochMs' ? {} : { example: p.example }),
  }));
}

/** The JSON Schema of the POST /route body, from the same table. */
export function routeBodySchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const p of ROUTE_PARAMS)
    if (p.modes.includes('rest'))
      properties[p.name] = { description: p.description, ...bodySchema(p), ...docDefault(p, 'rest') };
  return {
    type: 'object',
    description:
      'The GET /route parameters as a JSON object. Numbers as JSON numbers or decimal strings, flags as JSON booleans (or the query text), lists as arrays or comma strings. Unknown keys are refused.',
    additionalProperties: false,
    maxProperties: ROUTE_PARAMS.length,
    required: ROUTE_PARAMS.filter((p) => p.required === true).map((p) => p.name),
    properties,
    // Exactly one amount (spec 4.1).
    oneOf: [
      { required: ['amountIn'], not: { required: ['amountOut'] } },
      { required: ['amountOut'], not: { required: ['amountIn'] } },
    ],
  };
}

function docDefault(p: ParamSpec, mode: 'rest' | 'stream'): JsonSchema {
  if (p.name === 'includeQuotes') return { default: mode === 'rest' };
  if (p.kind === 'list' && Array.isArray(p.default)) return { default: [...(p.default as string[])] };
  return p.default === undefined ? {} : { default: p.default };
}

function numberRange(p: ParamSpec & { kind: 'number' }): JsonSchema {
  return {
    type: p.integer === true ? 'integer' : 'number',
    ...(p.minExclusive === true ? { exclusiveMinimum: p.min } : { minimum: p.min }),
    ...(p.max === undefined ? {} : { maximum: p.max }),
  };
}

function querySchema(p: ParamSpec): JsonSchema {
  switch (p.kind) {
    case 'asset':
      return { type: 'string', pattern: TEXT_PATTERNS.asset, maxLength: REQUEST_LIMITS.valueChars };
    case 'number':
      return numberRange(p);
    case 'epochMs':
      return { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
    case 'enum':
      return { type: 'string', enum: [...p.values] };
    case 'flag':
      // Any text is accepted; only the exact word flips the default (parsing rules 1-2).
      return text();
    case 'list':
      return listSchema(p);
    case 'balances':
      return { type: 'string', pattern: TEXT_PATTERNS.balances, maxLength: REQUEST_LIMITS.balancesChars };
  }
}

function bodySchema(p: ParamSpec): JsonSchema {
  switch (p.kind) {
    case 'asset':
    case 'enum':
      return querySchema(p);
    case 'number':
      return {
        oneOf: [
          numberRange(p),
          { type: 'string', pattern: numberTextPattern(p), maxLength: REQUEST_LIMITS.valueChars },
        ],
      };
    case 'epochMs':
      return { oneOf: [querySchema(p), { type: 'string', pattern: TEXT_PATTERNS.epochMs }] };
    case 'flag':
      return { oneOf: [{ type: 'boolean' }, text()] };
    case 'list':
      return {
        oneOf: [
          listSchema(p),
          {
            type: 'string',
            pattern: TEXT_PATTERNS.list(p.item, p.maxItems),
            maxLength: REQUEST_LIMITS.listChars,
          },
        ],
      };
    case 'balances':
      return {
        oneOf: [
          querySchema(p),
          {
            type: 'array',
            maxItems: REQUEST_LIMITS.balancesEntries,
            items: {
              type: 'string',
              pattern: TEXT_PATTERNS.holding,
              maxLength: REQUEST_LIMITS.balancesChars,
            },
          },
          {
            type: 'object',
            maxProperties: REQUEST_LIMITS.balancesEntries,
            propertyNames: { pattern: TEXT_PATTERNS.holdingKey },
            additionalProperties: {
              oneOf: [
                { type: 'number', minimum: 0 },
                // Trimmed, not length-capped: the pattern bounds the digits.
                { type: 'string', pattern: TEXT_PATTERNS.nonNegativeSpaced },
              ],
            },
          },
        ],
      };
  }
}

function listSchema(p: ParamSpec & { kind: 'list' }): JsonSchema {
  return {
    type: 'array',
    maxItems: p.maxItems,
    items: { type: 'string', pattern: p.item === 'asset' ? TEXT_PATTERNS.asset : TEXT_PATTERNS.venueItem },
  };
}
