import type { RouteRequest } from './types';

/** The spec's parameter defaults (route-service.md 4.1), the one place they are written down. */
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

/** A request with the spec's defaults for everything `over` does not set. */
export function routeRequest(
  over: Partial<RouteRequest> & Pick<RouteRequest, 'requestId' | 'from' | 'to' | 'amount'>,
): RouteRequest {
  return { ...ROUTE_DEFAULTS, ...over };
}
