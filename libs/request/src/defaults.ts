import type { RouteRequest } from '@app/routing';

/**
 * The spec's parameter defaults (route-service.md 4.1): the one place they are written down. The
 * parameter table, the parsers, the OpenAPI document and the backtest schedules all read them here.
 */
export const ROUTE_DEFAULTS = Object.freeze({
  exactSide: 'in',
  strategy: 'best_single',
  maxVenues: 3,
  bridges: Object.freeze(['USDT', 'USDC', 'BTC', 'ETH']),
  hopPenaltyBps: 5,
  exchanges: null,
  certifiedOnly: false,
  includeFees: true,
  includeQuotes: true,
  balances: null,
  balanceMode: 'cap',
  minLegNotional: 0,
  requireFullFill: false,
} as const satisfies Omit<RouteRequest, 'requestId' | 'from' | 'to' | 'amount'>);

/** Where a request comes from: each has its own few differences (see PARAMS `modes`). */
export type RouteMode = 'rest' | 'stream' | 'schedule';

/** What differs from ROUTE_DEFAULTS per entry point: the stream and backtests default quotes off. */
export const MODE_DEFAULTS: Readonly<Record<RouteMode, { readonly includeQuotes?: boolean }>> = Object.freeze(
  {
    rest: {},
    stream: { includeQuotes: false },
    schedule: { includeQuotes: false },
  },
);

/** A request with the spec's defaults for everything `over` does not set. */
export function routeRequest(
  over: Partial<RouteRequest> & Pick<RouteRequest, 'requestId' | 'from' | 'to' | 'amount'>,
): RouteRequest {
  return { ...ROUTE_DEFAULTS, ...over };
}
