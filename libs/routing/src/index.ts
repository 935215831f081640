export * from './types';
export { solve, watchSymbols } from './solve';
