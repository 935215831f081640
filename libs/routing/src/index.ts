export * from './types';
export { solve } from './solve';
export { ROUTE_DEFAULTS, routeRequest } from './defaults';
export { watchSymbols, candidates, marketBetween } from './paths';
export type { Candidate, PathStep } from './paths';
export { stalenessFraction, pathScore } from './numeric';
