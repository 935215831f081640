import type { Balances, BalanceMode, RouteRequest, Strategy } from '@app/routing';
import { byCodeUnit } from '@app/events';
import { MODE_DEFAULTS, ROUTE_DEFAULTS, type RouteMode } from './defaults';
import { ROUTE_PARAMS, type RouteParamName } from './params';
import { parseValue, type ParamValue, type Supplied } from './values';

/** A validated request minus its id (the id comes from the header, or is minted per frame). */
export type RouteParams = Omit<RouteRequest, 'requestId'>;

/** A refused request: the message for the client and the HTTP status that carries it. */
export interface ParamsError {
  readonly ok: false;
  readonly error: string;
  /** 400, or 414 when the query string as a whole is too long. */
  readonly status: 400 | 414;
}
export type ParamsParse =
  { readonly ok: true; readonly params: RouteParams; readonly asOf: number | null } | ParamsError;

/**
 * The one route-request parser (spec 4.1 and its parsing rules; clarifications 8-9): every entry
 * point (query string, JSON body, stream URL, backtest schedule) brings its parameters to a map of
 * supplied values and ends here, so one table of rules and one table of defaults decide for all.
 */
export function parseRouteInput(
  supplied: ReadonlyMap<RouteParamName, Supplied>,
  mode: RouteMode,
): ParamsParse {
  const values = new Map<RouteParamName, ParamValue>();
  const problems: string[] = [];
  for (const spec of ROUTE_PARAMS) {
    const given = supplied.get(spec.name);
    if (given === undefined) {
      if (spec.required === true) problems.push(`${spec.name} is required`);
      continue;
    }
    if (!spec.modes.includes(mode))
      return paramsError(spec.unavailable ?? `${spec.name} is not accepted here`);
    const parsed = parseValue(spec, given);
    if (parsed.ok) values.set(spec.name, parsed.value);
    else problems.push(parsed.error);
  }
  if (problems.length > 0) return paramsError(problems.join('; '));
  const amountIn = values.get('amountIn') as number | undefined;
  const amountOut = values.get('amountOut') as number | undefined;
  if ((amountIn === undefined) === (amountOut === undefined))
    return paramsError('exactly one of amountIn and amountOut must be supplied');
  const from = values.get('from') as string;
  const to = values.get('to') as string;
  if (from === to) return paramsError(`from and to must differ (both are ${from})`);
  return { ok: true, params: build(values, mode), asOf: (values.get('asOf') as number | undefined) ?? null };
}

function build(v: ReadonlyMap<RouteParamName, ParamValue>, mode: RouteMode): RouteParams {
  const d: Omit<RouteParams, 'from' | 'to' | 'amount'> = { ...ROUTE_DEFAULTS, ...MODE_DEFAULTS[mode] };
  const amountIn = v.get('amountIn') as number | undefined;
  const exchanges = v.get('exchanges') as readonly string[] | undefined;
  return {
    from: v.get('from') as string,
    to: v.get('to') as string,
    exactSide: amountIn !== undefined ? 'in' : 'out',
    amount: amountIn ?? (v.get('amountOut') as number),
    strategy: (v.get('strategy') as Strategy | undefined) ?? d.strategy,
    maxVenues: (v.get('maxVenues') as number | undefined) ?? d.maxVenues,
    bridges: (v.get('bridges') as readonly string[] | undefined) ?? d.bridges,
    hopPenaltyBps: (v.get('hopPenaltyBps') as number | undefined) ?? d.hopPenaltyBps,
    exchanges: exchanges === undefined ? d.exchanges : [...exchanges].sort(byCodeUnit),
    certifiedOnly: (v.get('certified') as boolean | undefined) ?? d.certifiedOnly,
    includeFees: (v.get('includeFees') as boolean | undefined) ?? d.includeFees,
    includeQuotes: (v.get('includeQuotes') as boolean | undefined) ?? d.includeQuotes,
    balances: (v.get('balances') as Balances | undefined) ?? d.balances,
    balanceMode: (v.get('balanceMode') as BalanceMode | undefined) ?? d.balanceMode,
    minLegNotional: (v.get('minLegNotional') as number | undefined) ?? d.minLegNotional,
    requireFullFill: (v.get('requireFullFill') as boolean | undefined) ?? d.requireFullFill,
  };
}

/** A 400 (or 414) with its message. */
export function paramsError(error: string, status: 400 | 414 = 400): ParamsError {
  return { ok: false, error, status };
}
