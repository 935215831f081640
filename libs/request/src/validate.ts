import { BALANCE_MODES, EXACT_SIDES, STRATEGIES, type Balances, type RouteRequest } from '@app/routing';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { balancesProblem } from './balances';
import { RouteParamsDto, type RouteParamName } from './route-params-dto';

/** Why a stored request is not a valid normalised RouteRequest: the field's path and the rule. */
export interface StoredRequestError {
  readonly field: string;
  readonly error: string;
}

export type StoredRequestParse =
  | { readonly ok: true; readonly request: RouteRequest & { readonly asOf?: number } }
  | ({ readonly ok: false } & StoredRequestError);

type Obj = Readonly<Record<string, unknown>>;

/** No entry point's group (AcceptedIn does not apply), every rule in full. */
const STORED: ValidatorOptions = Object.freeze({
  strictGroups: true,
  skipUndefinedProperties: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
});
/** Input caps bound parsing cost, not validity: a stored request is not held to them. */
const CAPS = new Set(['arrayMaxSize']);

class Bad extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(rule);
  }
}

/**
 * Validate a normalised request as stored (quote journal records) against the DTO's rules: its
 * fields are put under the DTO's parameter names (amount as amountIn, certifiedOnly as certified)
 * and class-validator checks them; what only a stored request has (requestId, exactSide, every
 * field present, finite numbers) is checked here. Fields are reported in the order they always were.
 */
export function validateStoredRequest(value: unknown): StoredRequestParse {
  try {
    return { ok: true, request: stored(value) };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, field: e.field, error: e.rule };
    throw e;
  }
}

function stored(value: unknown): RouteRequest & { asOf?: number } {
  const o = obj(value, 'request');
  const broken = brokenRules(o);
  const rule = (field: string, param: RouteParamName, message: string): void => {
    if (o[field] === undefined || broken.has(param)) throw new Bad(`request.${field}`, message);
  };
  const str = (k: string, allowEmpty = false): string => {
    const v = o[k];
    if (typeof v !== 'string' || (!allowEmpty && v === ''))
      throw new Bad(`request.${k}`, 'must be a non-empty string');
    return v;
  };
  const asset = (k: 'from' | 'to'): string => {
    const v = str(k);
    rule(k, k, 'must be an upper-case asset code');
    return v;
  };
  const num = (k: string, param: RouteParamName): number => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new Bad(`request.${k}`, 'must be a finite number');
    rule(k, param, `is out of the range of ${param}`);
    return v;
  };
  const bool = (k: string, param: RouteParamName): boolean => {
    rule(k, param, 'must be a boolean');
    return o[k] as boolean;
  };
  const oneOf = <T extends string>(k: string, values: readonly T[], param?: RouteParamName): T => {
    const v = o[k];
    const bad = param === undefined ? !(values as readonly unknown[]).includes(v) : broken.has(param);
    if (typeof v !== 'string' || bad) throw new Bad(`request.${k}`, `must be one of ${values.join(', ')}`);
    return v as T;
  };
  const list = (k: 'bridges' | 'exchanges'): string[] => {
    rule(k, k, 'must be an array of valid identifiers');
    return [...(o[k] as string[])];
  };
  const exchanges = o.exchanges === null ? null : list('exchanges');
  if (o.asOf !== undefined) rule('asOf', 'asOf', 'must be a non-negative integer');
  return {
    requestId: str('requestId', true),
    from: asset('from'),
    to: asset('to'),
    exactSide: oneOf('exactSide', EXACT_SIDES),
    amount: num('amount', 'amountIn'),
    strategy: oneOf('strategy', STRATEGIES, 'strategy'),
    maxVenues: num('maxVenues', 'maxVenues'),
    bridges: list('bridges'),
    hopPenaltyBps: num('hopPenaltyBps', 'hopPenaltyBps'),
    exchanges,
    certifiedOnly: bool('certifiedOnly', 'certified'),
    includeFees: bool('includeFees', 'includeFees'),
    includeQuotes: bool('includeQuotes', 'includeQuotes'),
    balances: balances(o.balances, broken.has('balances')),
    balanceMode: oneOf('balanceMode', BALANCE_MODES, 'balanceMode'),
    minLegNotional: num('minLegNotional', 'minLegNotional'),
    requireFullFill: bool('requireFullFill', 'requireFullFill'),
    ...(o.asOf === undefined ? {} : { asOf: o.asOf as number }),
  };
}

/** The parameters whose DTO rules the stored fields break (caps aside). */
function brokenRules(o: Obj): ReadonlySet<string> {
  const dto = Object.assign(new RouteParamsDto(), {
    from: o.from,
    to: o.to,
    // One amount, whichever side it pins: amountIn's and amountOut's rules are the same.
    amountIn: o.amount,
    strategy: o.strategy,
    maxVenues: o.maxVenues,
    bridges: o.bridges,
    hopPenaltyBps: o.hopPenaltyBps,
    exchanges: o.exchanges ?? undefined,
    certified: o.certifiedOnly,
    includeFees: o.includeFees,
    includeQuotes: o.includeQuotes,
    balances: o.balances ?? undefined,
    balanceMode: o.balanceMode,
    minLegNotional: o.minLegNotional,
    requireFullFill: o.requireFullFill,
    asOf: o.asOf,
  });
  const broken = new Set<string>();
  for (const e of validateSync(dto, STORED))
    if (Object.keys(e.constraints ?? {}).some((c) => !CAPS.has(c))) broken.add(e.property);
  return broken;
}

function obj(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Bad(field, 'must be a JSON object');
  return v as Obj;
}

function balances(v: unknown, broken: boolean): Balances | null {
  if (v === null) return null;
  // IsBalances decides; its rule names the first bad holding.
  const problem = broken || v === undefined ? balancesProblem(v) : null;
  if (problem !== null) throw new Bad(`request.balances${problem.path}`, problem.rule);
  const b = v as Balances;
  const perVenue: Record<string, Record<string, number>> = {};
  for (const venue of Object.keys(b.perVenue)) perVenue[venue] = { ...b.perVenue[venue] };
  return { default: { ...b.default }, perVenue };
}
