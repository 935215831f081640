import { byCodeUnit as cmp } from '@app/events';
import type { CcxtMarket } from './ccxt-venue';

/** Symbols to watch and configured symbols the venue does not list. */
export interface SymbolSelection {
  readonly symbols: readonly string[];
  readonly unknown: readonly string[];
}

/**
 * Explicit symbols as configured (those the venue lists), else every active spot market whose
 * base and quote are both in `assets`. Sorted, so subscription order is deterministic.
 */
export function selectSymbols(
  markets: Readonly<Record<string, CcxtMarket>>,
  assets: readonly string[],
  explicit: readonly string[] | null,
): SymbolSelection {
  if (explicit !== null) {
    const symbols = explicit.filter((s) => markets[s] !== undefined);
    return { symbols: [...symbols].sort(cmp), unknown: explicit.filter((s) => markets[s] === undefined) };
  }
  const universe = new Set(assets);
  const symbols = Object.values(markets)
    .filter((m) => m.spot === true && m.active !== false && universe.has(m.base) && universe.has(m.quote))
    .map((m) => m.symbol);
  return { symbols: [...new Set(symbols)].sort(cmp), unknown: [] };
}
