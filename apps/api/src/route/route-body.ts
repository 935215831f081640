import { ROUTE_PARAMS, type RouteParamName } from './route-query.dto';

export type BodyParse =
  | { readonly ok: true; readonly raw: Record<string, string> }
  | { readonly ok: false; readonly error: string };

const NUMERIC = new Set<RouteParamName>([
  'amountIn',
  'amountOut',
  'maxVenues',
  'hopPenaltyBps',
  'minLegNotional',
  'asOf',
]);
const FLAGS = new Set<RouteParamName>(['certified', 'includeFees', 'includeQuotes', 'requireFullFill']);
const LISTS = new Set<RouteParamName>(['bridges', 'exchanges']);
const KNOWN = new Set<string>(ROUTE_PARAMS);

/**
 * Bring a POST /route JSON body to the query string form (clarifications 9): numerics as JSON
 * numbers, flags as JSON booleans (string forms follow the query rules), lists as arrays or comma
 * strings, balances as the string form, an array of entries, or an object {"[venue.]ASSET": amount}.
 */
export function bodyToRaw(body: unknown): BodyParse {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('body must be a JSON object');
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (!KNOWN.has(name)) return fail(`unknown parameter '${name}'`);
    const key = name as RouteParamName;
    const text = toText(key, value);
    if (!text.ok) return text;
    raw[key] = text.text;
  }
  return { ok: true, raw };
}

type Text = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

function toText(key: RouteParamName, value: unknown): Text {
  if (typeof value === 'string') return { ok: true, text: value };
  if (NUMERIC.has(key))
    return typeof value === 'number' ? { ok: true, text: String(value) } : fail(`${key} must be a number`);
  if (FLAGS.has(key))
    return typeof value === 'boolean' ? { ok: true, text: String(value) } : fail(`${key} must be a boolean`);
  if (LISTS.has(key) || key === 'balances') {
    if (Array.isArray(value)) return joinList(key, value);
    if (key === 'balances' && typeof value === 'object' && value !== null)
      return balancesObject(value as Record<string, unknown>);
    return fail(
      `${key} must be ${key === 'balances' ? 'a string, an array or an object' : 'an array of strings or a comma-separated string'}`,
    );
  }
  return fail(`${key} must be a string`);
}

function joinList(key: RouteParamName, items: unknown[]): Text {
  for (const item of items) {
    if (typeof item !== 'string' || item.includes(',') || item.trim() === '')
      return fail(`${key} entries must be non-empty strings without commas`);
  }
  return { ok: true, text: items.join(',') };
}

function balancesObject(obj: Record<string, unknown>): Text {
  const entries: string[] = [];
  for (const [holding, amount] of Object.entries(obj)) {
    if (/[,:]/.test(holding)) return fail(`balances key '${holding}' must be ASSET or venue.ASSET`);
    if (typeof amount !== 'number' && typeof amount !== 'string')
      return fail(`balances amount of '${holding}' must be a number`);
    entries.push(`${holding}:${String(amount)}`);
  }
  return { ok: true, text: entries.join(',') };
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
