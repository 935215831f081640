import { shown } from './limits';
import { declaredParam } from './params';
import { paramsError, parseRouteInput, type ParamsParse } from './parse';
import type { RouteParamName } from './route-params-dto';
import type { Supplied } from './values';

/**
 * POST /route (clarifications 9): the body, already decoded by the strict JSON parser (no
 * duplicate or prototype keys, bounded depth), is an object of the same parameter names; numbers
 * as JSON numbers, flags as JSON booleans, lists as arrays or comma strings, balances as a string,
 * an array of entries or an object. Each value's string form follows the query rules. The v2
 * stream's `subscribe` takes the same object in 'stream' mode (no balances, no asOf).
 */
export function parseRouteBody(body: unknown, mode: 'rest' | 'stream' = 'rest'): ParamsParse {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return paramsError('body must be a JSON object');
  const supplied = new Map<RouteParamName, Supplied>();
  for (const [name, json] of Object.entries(body as Record<string, unknown>)) {
    if (declaredParam(name) === undefined) return paramsError(`unknown parameter ${shown(name)}`);
    supplied.set(name as RouteParamName, { json });
  }
  return parseRouteInput(supplied, mode);
}
