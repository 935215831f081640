import type { RouteResult, SolveInput } from './types';

/** Quote a route (spec 2.1-2.6a, 4.1; clarifications 1-8). Pure: time and config are arguments. */
export function solve(_input: SolveInput): RouteResult {
  throw new Error('solve: under construction');
}

/** Symbols every candidate path of `request` depends on (the stream's watch set), sorted. */
export function watchSymbols(_request: import('./types').RouteRequest, _books: import('@app/books').MarketsView): string[] {
  throw new Error('watchSymbols: under construction');
}
