import { REQUEST_LIMITS, shown } from './limits';
import { declaredParam } from './params';
import { paramsError, parseParam, parseRouteInput, type ParamsError, type ParamsParse } from './parse';
import type { RouteParamName } from './route-params-dto';
import type { ParamValue, Supplied } from './values';

/** The parameters of one query string, each named once, or why they cannot be. */
export type QueryPairs = { readonly ok: true; readonly pairs: ReadonlyMap<string, string> } | ParamsError;

/** The path of a request target: the text before the first '?', undecoded. */
export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

/** The raw query string of a request target (the text after the first '?'), undecoded. */
export function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/**
 * Split and decode a raw query string (the text after '?', as received) in one linear pass:
 * '&' separates pairs, the first '=' separates name and value, '+' is a space, percent-escapes
 * must be valid UTF-8. A repeated name is refused (parsing rule 3), so every name maps to one
 * value. The result is a Map, so no name can reach an object's prototype.
 */
export function splitQuery(raw: string): QueryPairs {
  if (raw.length > REQUEST_LIMITS.queryChars)
    return paramsError(`the query string is longer than ${REQUEST_LIMITS.queryChars} characters`, 414);
  const pairs = new Map<string, string>();
  if (raw === '') return { ok: true, pairs };
  const parts = raw.split('&');
  let count = 0;
  for (const part of parts) {
    if (part === '') continue;
    if (++count > REQUEST_LIMITS.queryPairs)
      return paramsError(`the query string has more than ${REQUEST_LIMITS.queryPairs} parameters`);
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (name === null || value === null)
      return paramsError(`the query string has a malformed percent-escape near ${shown(part)}`);
    if (pairs.has(name)) return paramsError(`parameter ${shown(name)} must not be repeated`);
    pairs.set(name, value);
  }
  return { ok: true, pairs };
}

/** GET /route and the stream URL: the query string's parameters through the one parser. */
export function parseRouteQuery(raw: string, mode: 'rest' | 'stream'): ParamsParse {
  const split = splitQuery(raw);
  if (!split.ok) return split;
  const supplied = new Map<RouteParamName, Supplied>();
  for (const [name, text] of split.pairs) {
    if (declaredParam(name) === undefined) return paramsError(`unknown parameter ${shown(name)}`);
    supplied.set(name as RouteParamName, { text });
  }
  return parseRouteInput(supplied, mode);
}

function decode(text: string): string | null {
  const plain = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plain.includes('%')) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    return null;
  }
}

/**
 * A query string that may carry only `names` (e.g. /orderbook's asOf): the same splitting,
 * unknown-parameter and value rules as /route; the values are those a route request would get.
 */
export function parseNamedQuery(
  raw: string,
  names: readonly RouteParamName[],
): { readonly ok: true; readonly values: ReadonlyMap<RouteParamName, ParamValue> } | ParamsError {
  const split = splitQuery(raw);
  if (!split.ok) return split;
  const values = new Map<RouteParamName, ParamValue>();
  for (const [name, text] of split.pairs) {
    const param = declaredParam(name);
    if (param === undefined || !names.includes(param.name))
      return paramsError(`unknown parameter ${shown(name)}`);
    const parsed = parseParam(param.name, { text });
    if (!parsed.ok) return paramsError(parsed.error);
    values.set(param.name, parsed.value);
  }
  return { ok: true, values };
}
