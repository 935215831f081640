export * from './types';
export { solve } from './solve';
export { watchSymbols, candidates, marketBetween } from './paths';
export type { Candidate, PathStep } from './paths';
export { stalenessFraction, pathScore } from './numeric';
/** Bumped whenever a change can alter any result byte (recorded in the quote journal). */
export const SOLVER_VERSION = '1.0.0';
