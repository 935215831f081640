export * from './types';
export { solve } from './solve';
export { solveWithProof, type Explained } from './solve-proof';
export * from './proof';
export { ROUTE_DEFAULTS, routeRequest } from './defaults';
export { watchSymbols, candidates, marketBetween } from './paths';
export type { Candidate, PathStep } from './paths';
export { stalenessFraction, pathScore } from './numeric';
