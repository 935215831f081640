import type { MarketsView } from '@app/books';
import { byCodeUnit as cmp } from '@app/events';
import type { RouteRequest } from './types';

/** One leg of a candidate path: convert `from` into `to` over `symbol`. */
export interface PathStep {
  readonly symbol: string;
  readonly from: string;
  readonly to: string;
}

/** A candidate path: the direct market (bridge null) or a two-hop path over a bridge asset. */
export interface Candidate {
  readonly bridge: string | null;
  readonly steps: readonly PathStep[];
}

/**
 * The market between two assets: `A/B` or `B/A`, whichever some venue lists (before filters and
 * freshness). Should both orientations be listed, the one with more venues wins, then the
 * lexicographically smaller symbol (docs/semantics.md).
 */
export function marketBetween(a: string, b: string, books: MarketsView): string | null {
  const ab = `${a}/${b}`;
  const ba = `${b}/${a}`;
  const nab = books.venuesListing(ab).length;
  const nba = books.venuesListing(ba).length;
  if (nab === 0 && nba === 0) return null;
  if (nab !== nba) return nab > nba ? ab : ba;
  return cmp(ab, ba) <= 0 ? ab : ba;
}

/** Existing candidates in candidate order: direct first, then one per bridge in `bridges` order. */
export function candidates(request: RouteRequest, books: MarketsView): Candidate[] {
  const out: Candidate[] = [];
  const direct = marketBetween(request.from, request.to, books);
  if (direct !== null)
    out.push({ bridge: null, steps: [{ symbol: direct, from: request.from, to: request.to }] });
  const seen = new Set<string>();
  for (const bridge of request.bridges) {
    if (bridge === request.from || bridge === request.to || seen.has(bridge)) continue;
    seen.add(bridge);
    const first = marketBetween(request.from, bridge, books);
    const second = marketBetween(bridge, request.to, books);
    if (first === null || second === null) continue;
    out.push({
      bridge,
      steps: [
        { symbol: first, from: request.from, to: bridge },
        { symbol: second, from: bridge, to: request.to },
      ],
    });
  }
  return out;
}

/**
 * Symbols a stream of `request` depends on: both orientations of every market any candidate path
 * could use, listed or not, so that a newly listed market is noticed (spec 6.2). Sorted.
 */
export function watchSymbols(request: RouteRequest, _books?: MarketsView): string[] {
  const pairs: [string, string][] = [[request.from, request.to]];
  for (const bridge of request.bridges) {
    if (bridge === request.from || bridge === request.to) continue;
    pairs.push([request.from, bridge], [bridge, request.to]);
  }
  const symbols = new Set<string>();
  for (const [a, b] of pairs) {
    symbols.add(`${a}/${b}`);
    symbols.add(`${b}/${a}`);
  }
  return [...symbols].sort(cmp);
}
