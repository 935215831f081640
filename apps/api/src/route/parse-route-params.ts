import { ROUTE_DEFAULTS, type RouteRequest, type Strategy } from '@app/routing';
import { validateSync } from 'class-validator';
import { parseBalances } from './balances';
import { ROUTE_PARAMS, RouteQueryDto, type RouteParamName } from './route-query.dto';

/** A validated request minus its id (the id comes from the header or is minted per frame). */
export type RouteParams = Omit<RouteRequest, 'requestId'>;
export type ParamsParse =
  | { readonly ok: true; readonly params: RouteParams; readonly asOf: number | null }
  | { readonly ok: false; readonly error: string };
/** REST defaults includeQuotes to true; the stream defaults it to false and refuses balances. */
export type RouteMode = 'rest' | 'stream';

export const DEFAULT_BRIDGES: readonly string[] = ROUTE_DEFAULTS.bridges;
const KNOWN = new Set<string>(ROUTE_PARAMS);

/**
 * Parse route parameters (spec 4.1 and its parsing rules, clarifications 9). `raw` is a query
 * object as Fastify decodes it: a repeated parameter arrives as an array.
 */
export function parseRouteParams(raw: Readonly<Record<string, unknown>>, mode: RouteMode): ParamsParse {
  const values: Partial<Record<RouteParamName, string>> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!KNOWN.has(name)) return fail(`unknown parameter '${name}'`);
    if (Array.isArray(value)) return fail(`parameter '${name}' must not be repeated`);
    if (typeof value !== 'string') return fail(`parameter '${name}' must be a string`);
    values[name as RouteParamName] = value;
  }
  if (mode === 'stream' && values.balances !== undefined)
    return fail('balances is not available on the stream');
  if (mode === 'stream' && values.asOf !== undefined)
    return fail('asOf is not available on the stream (a stream follows the live books)');

  const dto = Object.assign(new RouteQueryDto(), values);
  if (values.from !== undefined) dto.from = values.from.trim().toUpperCase();
  if (values.to !== undefined) dto.to = values.to.trim().toUpperCase();
  const errors = validateSync(dto, { forbidUnknownValues: false, stopAtFirstError: true });
  if (errors.length > 0) {
    return fail(errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; '));
  }
  if ((dto.amountIn === undefined) === (dto.amountOut === undefined)) {
    return fail('exactly one of amountIn and amountOut must be supplied');
  }
  if (dto.from === dto.to) return fail(`from and to must differ (both are ${dto.from})`);
  const asOf = dto.asOf === undefined ? null : Number(dto.asOf);
  if (asOf !== null && !Number.isSafeInteger(asOf))
    return fail(`asOf must be a plain integer of epoch milliseconds, got '${dto.asOf}'`);
  return { ok: true, params: toParams(dto, mode), asOf };
}

function toParams(dto: RouteQueryDto, mode: RouteMode): RouteParams {
  const balances = dto.balances === undefined ? null : parseBalances(dto.balances);
  return {
    from: dto.from,
    to: dto.to,
    exactSide: dto.amountIn !== undefined ? 'in' : 'out',
    amount: Number(dto.amountIn ?? dto.amountOut),
    strategy: (dto.strategy ?? ROUTE_DEFAULTS.strategy) as Strategy,
    maxVenues: dto.maxVenues === undefined ? ROUTE_DEFAULTS.maxVenues : Number(dto.maxVenues),
    bridges:
      dto.bridges === undefined ? DEFAULT_BRIDGES : unique(list(dto.bridges).map((b) => b.toUpperCase())),
    hopPenaltyBps: dto.hopPenaltyBps === undefined ? ROUTE_DEFAULTS.hopPenaltyBps : Number(dto.hopPenaltyBps),
    exchanges: dto.exchanges === undefined ? null : unique(list(dto.exchanges)).sort(byCodeUnit),
    // Parsing rules 1-2: only the exact string flips the default.
    certifiedOnly: dto.certified === 'true',
    includeFees: dto.includeFees !== 'false',
    includeQuotes: dto.includeQuotes === undefined ? mode === 'rest' : dto.includeQuotes !== 'false',
    balances: balances?.ok === true ? balances.balances : null,
    balanceMode: dto.balanceMode === 'require' ? 'require' : 'cap',
    minLegNotional:
      dto.minLegNotional === undefined ? ROUTE_DEFAULTS.minLegNotional : Number(dto.minLegNotional),
    requireFullFill: dto.requireFullFill === 'true',
  };
}

function list(raw: string): string[] {
  return raw.trim() === '' ? [] : raw.split(',').map((s) => s.trim());
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fail(error: string): ParamsParse {
  return { ok: false, error };
}
