import { ROUTE_DEFAULTS, routeRequest as withDefaults, type RouteRequest, type Strategy } from '@app/routing';

/**
 * A backtest schedule (docs/replay.md "backtest"): every `intervalMs` from --from to --to, each
 * request template is solved for each of its sizes with each strategy.
 */
export interface Schedule {
  readonly intervalMs: number;
  readonly strategies: readonly Strategy[];
  readonly requests: readonly ScheduledRequest[];
}

/**
 * One pair and direction: convert `from` into `to`, pinning the `exactSide` amount, for each of
 * `sizes`. Unset constraints take the API's defaults (ROUTE_DEFAULTS), so a schedule quotes what
 * GET /route would.
 */
export type ScheduledRequest = Pick<
  RouteRequest,
  | 'from'
  | 'to'
  | 'exactSide'
  | 'maxVenues'
  | 'bridges'
  | 'hopPenaltyBps'
  | 'exchanges'
  | 'certifiedOnly'
  | 'includeFees'
  | 'requireFullFill'
  | 'minLegNotional'
> & { readonly label: string; readonly sizes: readonly number[] };

const STRATEGIES: readonly Strategy[] = ['best_single', 'split_optimal', 'split_capped'];
const ASSET = /^[A-Z0-9._-]{1,32}$/;

type Obj = Record<string, unknown>;

/** Validate a decoded schedule file, naming the first bad field. */
export function parseSchedule(value: unknown): Schedule {
  const o = object(value, 'schedule');
  known(o, 'schedule', ['intervalMs', 'strategies', 'requests']);
  const intervalMs = o.intervalMs;
  if (typeof intervalMs !== 'number' || !Number.isInteger(intervalMs) || intervalMs < 1)
    bad('intervalMs', 'must be a positive integer (ms)');
  const strategies = o.strategies ?? STRATEGIES;
  if (
    !Array.isArray(strategies) ||
    strategies.length === 0 ||
    strategies.some((s) => !STRATEGIES.includes(s as Strategy))
  )
    bad('strategies', `must be a non-empty array of ${STRATEGIES.join(', ')}`);
  if (!Array.isArray(o.requests) || o.requests.length === 0) bad('requests', 'must be a non-empty array');
  const requests = (o.requests as unknown[]).map((r, i) => request(r, `requests[${i}]`));
  return { intervalMs: intervalMs, strategies: [...new Set(strategies as Strategy[])], requests };
}

function request(value: unknown, path: string): ScheduledRequest {
  const o = object(value, path);
  known(o, path, [
    'label',
    'from',
    'to',
    'exactSide',
    'sizes',
    'maxVenues',
    'bridges',
    'hopPenaltyBps',
    'exchanges',
    'certifiedOnly',
    'includeFees',
    'requireFullFill',
    'minLegNotional',
  ]);
  const asset = (k: string): string => {
    const v = o[k];
    if (typeof v !== 'string' || !ASSET.test(v.trim().toUpperCase()))
      bad(`${path}.${k}`, 'must be an asset code such as BTC');
    return v.trim().toUpperCase();
  };
  const from = asset('from');
  const to = asset('to');
  if (from === to) bad(`${path}.to`, 'must differ from from');
  const sizes = o.sizes;
  if (
    !Array.isArray(sizes) ||
    sizes.length === 0 ||
    sizes.some((s) => typeof s !== 'number' || !Number.isFinite(s) || s <= 0)
  )
    bad(`${path}.sizes`, 'must be a non-empty array of numbers > 0');
  const exactSide = o.exactSide ?? ROUTE_DEFAULTS.exactSide;
  if (exactSide !== 'in' && exactSide !== 'out') bad(`${path}.exactSide`, "must be 'in' or 'out'");
  const list = (k: string, fallback: readonly string[] | null): readonly string[] | null => {
    const v = o[k];
    if (v === undefined) return fallback;
    if (v === null && k === 'exchanges') return null;
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s.trim() === ''))
      bad(`${path}.${k}`, 'must be an array of non-empty strings');
    return (v as string[]).map((s) => (k === 'bridges' ? s.trim().toUpperCase() : s.trim().toLowerCase()));
  };
  const flag = (k: string, fallback: boolean): boolean => {
    const v = o[k] ?? fallback;
    if (typeof v !== 'boolean') bad(`${path}.${k}`, 'must be a boolean');
    return v;
  };
  const number = (k: string, fallback: number, min: number, max: number, integer = false): number => {
    const v = o[k] ?? fallback;
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < min ||
      v > max ||
      (integer && !Number.isInteger(v))
    )
      bad(`${path}.${k}`, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return v;
  };
  const label = o.label ?? `${from}->${to}`;
  if (typeof label !== 'string' || label === '') bad(`${path}.label`, 'must be a non-empty string');
  return {
    label: label,
    from,
    to,
    exactSide: exactSide,
    sizes: sizes as number[],
    maxVenues: number('maxVenues', ROUTE_DEFAULTS.maxVenues, 1, 100, true),
    bridges: list('bridges', ROUTE_DEFAULTS.bridges)!,
    hopPenaltyBps: number('hopPenaltyBps', ROUTE_DEFAULTS.hopPenaltyBps, 0, 10_000),
    exchanges: list('exchanges', ROUTE_DEFAULTS.exchanges),
    certifiedOnly: flag('certifiedOnly', ROUTE_DEFAULTS.certifiedOnly),
    includeFees: flag('includeFees', ROUTE_DEFAULTS.includeFees),
    requireFullFill: flag('requireFullFill', ROUTE_DEFAULTS.requireFullFill),
    minLegNotional: number('minLegNotional', ROUTE_DEFAULTS.minLegNotional, 0, 1e15),
  };
}

/** The normalised RouteRequest the solver receives for one scheduled quote (no quotes, no balances). */
export function routeRequest(
  r: ScheduledRequest,
  amount: number,
  strategy: Strategy,
  requestId: string,
): RouteRequest {
  const { label: _label, sizes: _sizes, ...constraints } = r;
  return withDefaults({ ...constraints, requestId, amount, strategy, includeQuotes: false });
}

function object(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(path, 'must be a JSON object');
  return v as Obj;
}

function known(o: Obj, path: string, keys: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!keys.includes(k)) bad(`${path}.${k}`, `is not a schedule field (known: ${keys.join(', ')})`);
}

function bad(path: string, why: string): never {
  throw new ScheduleError(`schedule: ${path} ${why}`);
}

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}
