import { getMetadataStorage } from 'class-validator';
import { validationMetadataArrayToSchemas } from 'class-validator-jsonschema';
import { MODE_DEFAULTS } from './defaults';
import { REQUEST_LIMITS } from './limits';
import { requestRules } from './param-decorators';
import { DECLARED_PARAMS, paramRange, type DeclaredParam } from './params';
import { RouteParamsDto } from './route-params-dto';
import { TEXT_PATTERNS, numberTextPattern } from './text-patterns';

/** A JSON Schema (OpenAPI 3.1 dialect) as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

type ValidationMetadata = Parameters<typeof validationMetadataArrayToSchemas>[0][number];

interface ValueSchemas {
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: readonly string[];
}

/**
 * class-validator-jsonschema's converters, where the DTO's need differs from its defaults: IsDefined
 * is stated by `required`; Min, Max and IsPositive give bounds only (the type is IsNumber's or
 * IsInt's); AcceptedIn is stated by which operations list a parameter, and balances' schemas are
 * their written forms.
 */
const CONVERTERS = {
  isDefined: {},
  min: (m: ValidationMetadata) => ({ minimum: m.constraints[0] as number }),
  max: (m: ValidationMetadata) => ({ maximum: m.constraints[0] as number }),
  isPositive: { exclusiveMinimum: 0 },
  acceptedIn: {},
  isBalances: {},
};

let values: ValueSchemas | null = null;

/**
 * Each parameter's value schema (type, bounds, enum, list size) and the required ones: the DTO's
 * class-validator metadata converted by class-validator-jsonschema. The metadata is passed in the
 * order the rules are written (decorators register from the property outwards), so a later rule
 * refines an earlier one: IsInt after IsNumber makes an integer.
 */
function valueSchemas(): ValueSchemas {
  if (values !== null) return values;
  const metas = getMetadataStorage()
    .getTargetValidationMetadatas(RouteParamsDto, '', true, false)
    .map((m) => ({ ...m, type: m.name ?? m.type }))
    .reverse();
  const schema = validationMetadataArrayToSchemas(metas, {
    additionalConverters: CONVERTERS,
    skipMissingProperties: true,
  })[RouteParamsDto.name];
  values = {
    properties: (schema?.properties ?? {}) as ValueSchemas['properties'],
    required: schema?.required ?? [],
  };
  return values;
}

const text = (maxLength: number = REQUEST_LIMITS.valueChars): JsonSchema => ({ type: 'string', maxLength });

/**
 * The OpenAPI query parameters of GET /route (and the stream's, with `mode`), generated from the
 * DTO: its rules through class-validator-jsonschema, each parameter's written form, its words.
 * Rules that tie parameters together (from differs from to, each holding once, asOf within the
 * log's reach, the 4096-character query string) cannot be stated per parameter; the descriptions
 * say them.
 */
export function routeQueryParameters(mode: 'rest' | 'stream'): JsonSchema[] {
  const v = valueSchemas();
  return DECLARED_PARAMS.filter((p) => p.modes.includes(mode)).map((p) => ({
    name: p.name,
    in: 'query',
    required: v.required.includes(p.name),
    description: p.doc.description,
    ...(isList(p) ? { style: 'form', explode: false } : {}),
    schema: { ...querySchema(p, valueOf(p)), ...docDefault(p, mode) },
    // An asOf example would be pre-filled by try-it consoles and refused by a server whose log starts later.
    ...(p.doc.example === undefined || p.form === 'epochMs' ? {} : { example: p.doc.example }),
  }));
}

/** The JSON Schema of the POST /route body, from the same DTO. */
export function routeBodySchema(): JsonSchema {
  const v = valueSchemas();
  const properties: Record<string, JsonSchema> = {};
  for (const p of DECLARED_PARAMS)
    if (p.modes.includes('rest'))
      properties[p.name] = {
        description: p.doc.description,
        ...bodySchema(p, valueOf(p)),
        ...docDefault(p, 'rest'),
      };
  const oneOf = requestRules(RouteParamsDto).flatMap((r) =>
    r.kind === 'exactlyOne'
      ? [
          { required: [r.names[0]], not: { required: [r.names[1]] } },
          { required: [r.names[1]], not: { required: [r.names[0]] } },
        ]
      : [],
  );
  return {
    type: 'object',
    description:
      'The GET /route parameters as a JSON object. Numbers as JSON numbers or decimal strings, flags as JSON booleans (or the query text), lists as arrays or comma strings. Unknown keys are refused.',
    additionalProperties: false,
    maxProperties: DECLARED_PARAMS.length,
    required: DECLARED_PARAMS.filter((p) => v.required.includes(p.name)).map((p) => p.name),
    properties,
    ...(oneOf.length === 0 ? {} : { oneOf }),
  };
}

function valueOf(p: DeclaredParam): JsonSchema {
  return valueSchemas().properties[p.name] ?? {};
}

const isList = (p: DeclaredParam): boolean => p.form === 'assetList' || p.form === 'venueList';

/** The documented default; the stream's own defaults (MODE_DEFAULTS) are named as the parameters are. */
function docDefault(p: DeclaredParam, mode: 'rest' | 'stream'): JsonSchema {
  const own = (MODE_DEFAULTS[mode] as Readonly<Record<string, unknown>>)[p.name];
  const value = own ?? p.doc.default;
  if (Array.isArray(value)) return { default: [...(value as unknown[])] };
  return value === undefined ? {} : { default: value };
}

/** A number's type and bounds, as the value schema states them. */
function numberSchema(v: JsonSchema): JsonSchema {
  const pick = (k: string): JsonSchema => (v[k] === undefined ? {} : { [k]: v[k] });
  // The tighter lower bound: a Min above IsPositive's 0 (the amounts' SMALLEST_AMOUNT) wins.
  const min = v.minimum as number | undefined;
  const exclusive = v.exclusiveMinimum as number | undefined;
  const lower = exclusive !== undefined && (min === undefined || min <= exclusive);
  return {
    type: v.type,
    ...(lower ? pick('exclusiveMinimum') : pick('minimum')),
    ...pick('maximum'),
  };
}

function listSchema(p: DeclaredParam, v: JsonSchema): JsonSchema {
  return {
    type: 'array',
    maxItems: v.maxItems,
    items: {
      type: 'string',
      pattern: p.form === 'assetList' ? TEXT_PATTERNS.asset : TEXT_PATTERNS.venueItem,
    },
  };
}

function querySchema(p: DeclaredParam, v: JsonSchema): JsonSchema {
  switch (p.form) {
    case 'asset':
      return { type: 'string', pattern: TEXT_PATTERNS.asset, maxLength: REQUEST_LIMITS.valueChars };
    case 'number':
    case 'epochMs':
      return numberSchema(v);
    case 'enum':
      return { type: 'string', enum: [...(v.enum as readonly unknown[])] };
    case 'flag':
      // Any text is accepted; only the exact word flips the default (parsing rules 1-2).
      return text();
    case 'assetList':
    case 'venueList':
      return listSchema(p, v);
    case 'balances':
      return { type: 'string', pattern: TEXT_PATTERNS.balances, maxLength: REQUEST_LIMITS.balancesChars };
  }
}

function bodySchema(p: DeclaredParam, v: JsonSchema): JsonSchema {
  switch (p.form) {
    case 'asset':
    case 'enum':
      return querySchema(p, v);
    case 'number':
      return {
        oneOf: [
          numberSchema(v),
          {
            type: 'string',
            pattern: numberTextPattern(p.name, paramRange(p.name)),
            maxLength: REQUEST_LIMITS.valueChars,
          },
        ],
      };
    case 'epochMs':
      return { oneOf: [querySchema(p, v), { type: 'string', pattern: TEXT_PATTERNS.epochMs }] };
    case 'flag':
      return { oneOf: [{ type: v.type }, text()] };
    case 'assetList':
    case 'venueList':
      return {
        oneOf: [
          listSchema(p, v),
          {
            type: 'string',
            pattern: TEXT_PATTERNS.list(p.form === 'assetList' ? 'asset' : 'venue', v.maxItems as number),
            maxLength: REQUEST_LIMITS.listChars,
          },
        ],
      };
    case 'balances':
      return {
        oneOf: [
          querySchema(p, v),
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
