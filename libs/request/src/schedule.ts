import { EXACT_SIDES, type ExactSide, type Strategy } from '@app/routing';
import { ROUTE_DEFAULTS } from './defaults';
import { DECLARED_PARAMS } from './params';
import { parseRouteInput, type RouteParams } from './parse';
import type { RouteParamName } from './route-params-dto';
import type { Supplied } from './values';

/**
 * One request template of a backtest schedule (docs/replay.md "backtest"): the POST /route body
 * fields without an amount or a strategy, plus `label`, `exactSide` and `sizes`. The schedule
 * supplies each size as amountIn or amountOut and each of its strategies, and the result goes
 * through the same parser as every API request: unset fields take the API's defaults.
 */
export interface ScheduleEntry {
  readonly label: string;
  readonly exactSide: ExactSide;
  readonly sizes: readonly number[];
  readonly supplied: ReadonlyMap<RouteParamName, Supplied>;
}

export type ScheduleEntryParse =
  | { readonly ok: true; readonly entry: ScheduleEntry }
  | { readonly ok: false; readonly field: string; readonly error: string };

/** Fields a schedule entry may not carry: the schedule supplies them. */
const SUPPLIED_BY_SCHEDULE = new Set<string>(['amountIn', 'amountOut', 'strategy']);
/** Every field an entry may carry, in the documented order. */
export const SCHEDULE_FIELDS: readonly string[] = [
  'label',
  'exactSide',
  'sizes',
  ...DECLARED_PARAMS.filter((p) => p.modes.includes('schedule') && !SUPPLIED_BY_SCHEDULE.has(p.name)).map(
    (p) => p.name,
  ),
];

/** Validate one entry (decoded JSON); the first size is parsed in full so every bad field is named now. */
export function parseScheduleEntry(value: unknown): ScheduleEntryParse {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, field: '', error: 'must be a JSON object' };
  const o = value as Record<string, unknown>;
  const supplied = new Map<RouteParamName, Supplied>();
  for (const [key, json] of Object.entries(o)) {
    if (!SCHEDULE_FIELDS.includes(key))
      return {
        ok: false,
        field: key,
        error: `is not a schedule field (known: ${SCHEDULE_FIELDS.join(', ')})`,
      };
    if (key !== 'label' && key !== 'exactSide' && key !== 'sizes')
      supplied.set(key as RouteParamName, { json });
  }
  const sizes = o.sizes;
  if (
    !Array.isArray(sizes) ||
    sizes.length === 0 ||
    sizes.some((s) => typeof s !== 'number' || !Number.isFinite(s) || s <= 0)
  )
    return { ok: false, field: 'sizes', error: 'must be a non-empty array of numbers > 0' };
  const exactSide = o.exactSide ?? ROUTE_DEFAULTS.exactSide;
  if (!EXACT_SIDES.includes(exactSide as ExactSide))
    return { ok: false, field: 'exactSide', error: "must be 'in' or 'out'" };
  const entry: ScheduleEntry = {
    label: '',
    exactSide: exactSide as ExactSide,
    sizes: sizes as number[],
    supplied,
  };
  const first = scheduledParams(entry, entry.sizes[0]!, ROUTE_DEFAULTS.strategy);
  if (!first.ok) return { ok: false, field: first.field, error: first.error };
  const label = o.label ?? `${first.params.from}->${first.params.to}`;
  if (typeof label !== 'string' || label === '')
    return { ok: false, field: 'label', error: 'must be a non-empty string' };
  return { ok: true, entry: { ...entry, label } };
}

/** The normalised request of one size and strategy of an entry (includeQuotes off, as for every backtest). */
export function scheduledParams(
  entry: ScheduleEntry,
  amount: number,
  strategy: Strategy,
):
  | { readonly ok: true; readonly params: RouteParams }
  | { readonly ok: false; readonly field: string; readonly error: string } {
  const supplied = new Map(entry.supplied);
  supplied.set(entry.exactSide === 'in' ? 'amountIn' : 'amountOut', { json: amount });
  supplied.set('strategy', { json: strategy });
  const parsed = parseRouteInput(supplied, 'schedule');
  if (!parsed.ok) {
    // The parser names the field first in its message ("maxVenues must be ...").
    const field = parsed.error.split(/[ ;]/, 1)[0] ?? '';
    return { ok: false, field, error: parsed.error };
  }
  return { ok: true, params: parsed.params };
}
