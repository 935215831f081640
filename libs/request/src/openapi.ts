import { REQUEST_LIMITS } from './limits';
import { ROUTE_PARAMS, type ParamSpec } from './params';

/** A JSON Schema (OpenAPI 3.1 dialect) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

const ASSET_PATTERN = '^\\s*[A-Za-z0-9._-]{1,32}\\s*$';
const VENUE_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** A plain decimal as text (clarifications 9), as the query string carries numbers. */
const DECIMAL_PATTERN = '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$';
const text = (maxLength: number = REQUEST_LIMITS.valueChars): JsonSchema => ({ type: 'string', maxLength });

/**
 * The OpenAPI query parameters of GET /route (and the stream's, with `mode`), generated from the
 * one parameter table, so the document cannot drift from the parser.
 */
export function routeQueryParameters(mode: 'rest' | 'stream'): JsonSchema[] {
  return ROUTE_PARAMS.filter((p) => p.modes.includes(mode)).map((p) => ({
    name: p.name,
    in: 'query',
    required: p.required === true,
    description: p.description,
    ...(p.kind === 'list' ? { style: 'form', explode: false } : {}),
    schema: { ...querySchema(p), ...docDefault(p, mode) },
    ...(p.example === undefined ? {} : { example: p.example }),
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
    additionalProperties: false,
    required: ROUTE_PARAMS.filter((p) => p.required === true).map((p) => p.name),
    properties,
    // Exactly one amount (spec 4.1).
    oneOf: [{ required: ['amountIn'] }, { required: ['amountOut'] }],
  };
}

function docDefault(p: ParamSpec, mode: 'rest' | 'stream'): JsonSchema {
  if (p.name === 'includeQuotes') return { default: mode === 'rest' };
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
      return { type: 'string', pattern: ASSET_PATTERN };
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
      return text(REQUEST_LIMITS.balancesChars);
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
          { type: 'string', pattern: DECIMAL_PATTERN, maxLength: REQUEST_LIMITS.valueChars },
        ],
      };
    case 'epochMs':
      return { oneOf: [querySchema(p), { type: 'string', pattern: '^[0-9]{1,16}$' }] };
    case 'flag':
      return { oneOf: [{ type: 'boolean' }, text()] };
    case 'list':
      return { oneOf: [listSchema(p), text(REQUEST_LIMITS.listChars)] };
    case 'balances':
      return {
        oneOf: [
          text(REQUEST_LIMITS.balancesChars),
          {
            type: 'array',
            maxItems: REQUEST_LIMITS.balancesEntries,
            items: { type: 'string', minLength: 1 },
          },
          {
            type: 'object',
            maxProperties: REQUEST_LIMITS.balancesEntries,
            additionalProperties: {
              oneOf: [
                { type: 'number', minimum: 0 },
                { type: 'string', pattern: DECIMAL_PATTERN },
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
    items: { type: 'string', pattern: p.item === 'asset' ? ASSET_PATTERN : VENUE_PATTERN },
  };
}
