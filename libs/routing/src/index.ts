export * from './types';
export { solve } from './solve';
export { solveWithProof, type Explained } from './solve-proof';
export * from './proof';
export { constraintCosts } from './counterfactuals';
export type { ConstraintCosts, Counterfactual, Outcome, PathCost, StrategyCost } from './counterfactuals';
export { watchSymbols, candidates, marketBetween } from './paths';
export type { Candidate, PathStep } from './paths';
export { stalenessFraction, pathScore } from './numeric';
