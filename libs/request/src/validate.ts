import { BALANCE_MODES, EXACT_SIDES, STRATEGIES, type Balances, type RouteRequest } from '@app/routing';
import { isPrototypeKey } from './limits';
import { PARAM_BY_NAME, type ParamSpec } from './params';
import { ASSET, VENUE } from './scan';

/** Why a stored request is not a valid normalised RouteRequest: the field's path and the rule. */
export interface StoredRequestError {
  readonly field: string;
  readonly error: string;
}

export type StoredRequestParse =
  | { readonly ok: true; readonly request: RouteRequest & { readonly asOf?: number } }
  | ({ readonly ok: false } & StoredRequestError);

type Obj = Record<string, unknown>;

class Bad extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(rule);
  }
}

/**
 * Validate a normalised request as stored (quote journal records): the same rules as the parser,
 * read from the same parameter table, applied to the solver's field names and types. Input caps
 * (list lengths, value lengths) are not re-applied: they bound parsing cost, not validity.
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
  const str = (k: string, allowEmpty = false): string => {
    const v = o[k];
    if (typeof v !== 'string' || (!allowEmpty && v === ''))
      throw new Bad(`request.${k}`, 'must be a non-empty string');
    return v;
  };
  const asset = (k: string): string => {
    const v = str(k);
    if (!ASSET.test(v)) throw new Bad(`request.${k}`, 'must be an upper-case asset code');
    return v;
  };
  const num = (k: string, spec: ParamSpec | null): number => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new Bad(`request.${k}`, 'must be a finite number');
    if (spec?.kind === 'number') {
      const low = spec.minExclusive === true ? v <= spec.min : v < spec.min;
      if (low || (spec.max !== undefined && v > spec.max) || (spec.integer === true && !Number.isInteger(v)))
        throw new Bad(`request.${k}`, `is out of the range of ${spec.name}`);
    }
    return v;
  };
  const bool = (k: string): boolean => {
    if (typeof o[k] !== 'boolean') throw new Bad(`request.${k}`, 'must be a boolean');
    return o[k];
  };
  const oneOf = <T extends string>(k: string, values: readonly T[]): T => {
    const v = o[k];
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
      throw new Bad(`request.${k}`, `must be one of ${values.join(', ')}`);
    return v as T;
  };
  const list = (k: string, item: RegExp): string[] => {
    const v = o[k];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || !item.test(s) || isPrototypeKey(s)))
      throw new Bad(`request.${k}`, 'must be an array of valid identifiers');
    return [...(v as string[])];
  };
  const exchanges = o.exchanges === null ? null : list('exchanges', VENUE);
  const asOf = o.asOf;
  if (asOf !== undefined && (typeof asOf !== 'number' || !Number.isSafeInteger(asOf) || asOf < 0))
    throw new Bad('request.asOf', 'must be a non-negative integer');
  return {
    requestId: str('requestId', true),
    from: asset('from'),
    to: asset('to'),
    exactSide: oneOf('exactSide', EXACT_SIDES),
    amount: num('amount', PARAM_BY_NAME.get('amountIn')!),
    strategy: oneOf('strategy', STRATEGIES),
    maxVenues: num('maxVenues', PARAM_BY_NAME.get('maxVenues')!),
    bridges: list('bridges', ASSET),
    hopPenaltyBps: num('hopPenaltyBps', PARAM_BY_NAME.get('hopPenaltyBps')!),
    exchanges,
    certifiedOnly: bool('certifiedOnly'),
    includeFees: bool('includeFees'),
    includeQuotes: bool('includeQuotes'),
    balances: balances(o.balances),
    balanceMode: oneOf('balanceMode', BALANCE_MODES),
    minLegNotional: num('minLegNotional', PARAM_BY_NAME.get('minLegNotional')!),
    requireFullFill: bool('requireFullFill'),
    ...(asOf === undefined ? {} : { asOf }),
  };
}

function obj(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Bad(field, 'must be a JSON object');
  return v as Obj;
}

function balances(v: unknown): Balances | null {
  if (v === null) return null;
  const o = obj(v, 'request.balances');
  const perVenue: Record<string, Record<string, number>> = {};
  for (const [venue, held] of Object.entries(obj(o.perVenue, 'request.balances.perVenue'))) {
    if (!VENUE.test(venue) || isPrototypeKey(venue))
      throw new Bad(`request.balances.perVenue.${venue}`, 'is not a venue id');
    perVenue[venue] = amounts(held, `request.balances.perVenue.${venue}`);
  }
  return { default: amounts(o.default, 'request.balances.default'), perVenue };
}

function amounts(v: unknown, field: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [asset, n] of Object.entries(obj(v, field))) {
    if (!ASSET.test(asset)) throw new Bad(`${field}.${asset}`, 'is not an asset code');
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      throw new Bad(`${field}.${asset}`, 'must be a finite number >= 0');
    out[asset] = n;
  }
  return out;
}
