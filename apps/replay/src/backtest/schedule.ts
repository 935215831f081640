import { parseScheduleEntry, scheduledParams, type RouteParams, type ScheduleEntry } from '@app/request';
import { STRATEGIES, type RouteRequest, type Strategy } from '@app/routing';

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
 * One pair and direction: a POST /route body without amount or strategy, plus `label`,
 * `exactSide` and `sizes`, parsed by the API's own request parser (libs/request), so unset fields
 * take the API's defaults and a schedule quotes exactly what POST /route would. The normalised
 * constraints (those of the first size) are spread in for reports.
 */
export type ScheduledRequest = ScheduleEntry & Omit<RouteParams, 'amount' | 'strategy' | 'exactSide'>;

type Obj = Record<string, unknown>;

/** Validate a decoded schedule file, naming the first bad field. */
export function parseSchedule(value: unknown): Schedule {
  const o = object(value, 'schedule');
  for (const k of Object.keys(o))
    if (!['intervalMs', 'strategies', 'requests'].includes(k))
      bad(`schedule.${k}`, 'is not a schedule field (known: intervalMs, strategies, requests)');
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
  return { intervalMs, strategies: [...new Set(strategies as Strategy[])], requests };
}

function request(value: unknown, path: string): ScheduledRequest {
  const parsed = parseScheduleEntry(value);
  if (!parsed.ok)
    bad(
      parsed.field === '' ? path : `${path}.${parsed.field}`,
      parsed.error.startsWith(`${parsed.field} `)
        ? parsed.error.slice(parsed.field.length + 1)
        : parsed.error,
    );
  const first = scheduledParams(parsed.entry, parsed.entry.sizes[0]!, STRATEGIES[0]);
  if (!first.ok) bad(path, first.error);
  const { amount: _amount, strategy: _strategy, exactSide: _side, ...constraints } = first.params;
  return { ...parsed.entry, ...constraints };
}

const memo = new WeakMap<ScheduledRequest, Map<string, RouteParams>>();

/** The normalised RouteRequest the solver receives for one scheduled quote (no quotes, as every backtest). */
export function routeRequest(
  r: ScheduledRequest,
  amount: number,
  strategy: Strategy,
  requestId: string,
): RouteRequest {
  let byKey = memo.get(r);
  if (byKey === undefined) memo.set(r, (byKey = new Map<string, RouteParams>()));
  const key = `${amount}|${strategy}`;
  let params = byKey.get(key);
  if (params === undefined) {
    const parsed = scheduledParams(r, amount, strategy);
    if (!parsed.ok) throw new ScheduleError(`schedule: ${r.label}: ${parsed.error}`);
    byKey.set(key, (params = parsed.params));
  }
  return { requestId, ...params };
}

function object(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(path, 'must be a JSON object');
  return v as Obj;
}

function bad(path: string, why: string): never {
  throw new ScheduleError(`schedule: ${path} ${why}`);
}

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}
