import type { RouteRequest } from '@app/routing';
import { byCodeUnit } from '@app/events';
import { validateSync, type ValidationError, type ValidatorOptions } from 'class-validator';
import { MODE_DEFAULTS, ROUTE_DEFAULTS, type RouteMode } from './defaults';
import { ACCEPTED_IN, brokenRequestRule, firstBroken } from './param-decorators';
import { ROUTE_PARAM_NAMES, declaredParam } from './params';
import { RouteParamsDto, type RouteParamName } from './route-params-dto';
import { WRITTEN } from './rule-messages';
import { decodeParam, type ParamValue, type Supplied } from './values';

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
 * class-validator's options per entry point: its validation group (AcceptedIn refuses a parameter
 * in the groups of the entry points that do not take it), absent parameters left to IsDefined,
 * and no copies of the DTO or its values in the errors.
 */
const VALIDATION: Readonly<Record<RouteMode, ValidatorOptions>> = Object.freeze({
  rest: options('rest'),
  stream: options('stream'),
  schedule: options('schedule'),
});

function options(mode: RouteMode): ValidatorOptions {
  return Object.freeze({
    groups: [mode],
    always: true,
    skipUndefinedProperties: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
}

/**
 * The one route-request parser (spec 4.1 and its parsing rules; clarifications 8-9): every entry
 * point (query string, JSON body, stream URL, backtest schedule) brings its parameters to a map of
 * supplied values and ends here. Each value is decoded by the scanners into a RouteParamsDto, then
 * class-validator checks the DTO. A parameter the entry point does not take is refused alone;
 * otherwise every bad parameter is named, in the spec's order, each by its first broken rule (a
 * malformed text before any rule); the rules that tie parameters together come last.
 */
export function parseRouteInput(
  supplied: ReadonlyMap<RouteParamName, Supplied>,
  mode: RouteMode,
): ParamsParse {
  const dto = new RouteParamsDto();
  const target = dto as unknown as Record<string, unknown>;
  let malformed: Map<string, string> | null = null;
  for (const [name, given] of supplied) {
    const decoded = decodeParam(declaredParam(name)!, given);
    if (decoded.ok) {
      target[name] = decoded.value;
      if (decoded.text !== undefined) (dto[WRITTEN] ??= {})[name] = decoded.text;
    } else {
      // Kept as supplied, so AcceptedIn still sees it; its other rules are not reported.
      target[name] = 'text' in given ? given.text : given.json;
      (malformed ??= new Map()).set(name, decoded.error);
    }
  }
  const errors = validateSync(dto, VALIDATION[mode]);
  if (errors.length > 0 || malformed !== null) {
    for (const e of errors) {
      const refused = e.constraints?.[ACCEPTED_IN];
      if (refused !== undefined) return paramsError(refused);
    }
    const problems = namedProblems(errors, malformed);
    if (problems.length > 0) return paramsError(problems.join('; '));
  }
  const broken = brokenRequestRule(RouteParamsDto, target);
  if (broken !== null) return paramsError(broken);
  return { ok: true, params: build(dto, mode), asOf: dto.asOf ?? null };
}

function namedProblems(
  errors: readonly ValidationError[],
  malformed: ReadonlyMap<string, string> | null,
): string[] {
  const byName = new Map(errors.map((e) => [e.property, e]));
  const problems: string[] = [];
  for (const name of ROUTE_PARAM_NAMES) {
    const problem = malformed?.get(name) ?? firstBroken(byName.get(name));
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/**
 * One parameter alone, as a route request would take it (e.g. /orderbook's asOf): its value, or
 * the message its scanner or its first broken rule gives.
 */
export function parseParam(
  name: RouteParamName,
  supplied: Supplied,
): { readonly ok: true; readonly value: ParamValue } | { readonly ok: false; readonly error: string } {
  const decoded = decodeParam(declaredParam(name)!, supplied);
  if (!decoded.ok) return decoded;
  const dto = new RouteParamsDto();
  (dto as unknown as Record<string, unknown>)[name] = decoded.value;
  if (decoded.text !== undefined) dto[WRITTEN] = { [name]: decoded.text };
  const error = firstBroken(validateSync(dto, VALIDATION.rest).find((e) => e.property === name));
  return error === undefined ? { ok: true, value: decoded.value as ParamValue } : { ok: false, error };
}

function build(dto: RouteParamsDto, mode: RouteMode): RouteParams {
  const d: Omit<RouteParams, 'from' | 'to' | 'amount'> = { ...ROUTE_DEFAULTS, ...MODE_DEFAULTS[mode] };
  return {
    from: dto.from,
    to: dto.to,
    exactSide: dto.amountIn !== undefined ? 'in' : 'out',
    amount: dto.amountIn ?? dto.amountOut!,
    strategy: dto.strategy ?? d.strategy,
    maxVenues: dto.maxVenues ?? d.maxVenues,
    // Bridges keep the caller's order; both lists lose repeats; exchanges are echoed sorted.
    bridges: dto.bridges === undefined ? d.bridges : unique(dto.bridges),
    hopPenaltyBps: dto.hopPenaltyBps ?? d.hopPenaltyBps,
    exchanges: dto.exchanges === undefined ? d.exchanges : unique(dto.exchanges).sort(byCodeUnit),
    certifiedOnly: dto.certified ?? d.certifiedOnly,
    includeFees: dto.includeFees ?? d.includeFees,
    includeQuotes: dto.includeQuotes ?? d.includeQuotes,
    balances: dto.balances ?? d.balances,
    balanceMode: dto.balanceMode ?? d.balanceMode,
    minLegNotional: dto.minLegNotional ?? d.minLegNotional,
    requireFullFill: dto.requireFullFill ?? d.requireFullFill,
  };
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** A 400 (or 414) with its message. */
export function paramsError(error: string, status: 400 | 414 = 400): ParamsError {
  return { ok: false, error, status };
}
