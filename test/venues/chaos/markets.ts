import { marketsOption, spotMarket } from '../offline-markets';
import type { SpeakerMarket } from './speaker';

/** The ccxt `markets` option for a speaker's markets (spot structures plus the venue's extra fields). */
export function injectedMarkets(markets: readonly SpeakerMarket[]): Record<string, unknown> {
  return marketsOption(markets.map((m) => ({ ...spotMarket(m.id, m.base, m.quote), ...(m.extra ?? {}) })));
}

/** ccxt's re-dial backoff and keepalive, shortened for tests (options.ws, streaming). */
export const FAST_WS = { backoff: { base: 50, max: 300 } };

/** Markets of the default universe, as [base, quote] pairs, for speakers to name in their id format. */
export const PAIRS: readonly (readonly [string, string])[] = [
  ['BTC', 'USDT'],
  ['ETH', 'USDT'],
  ['SOL', 'USDT'],
  ['XRP', 'USDT'],
  ['ETH', 'BTC'],
  ['BTC', 'USD'],
  ['ETH', 'USD'],
  ['BTC', 'EUR'],
  ['BTC', 'USDC'],
  ['ETH', 'USDC'],
];

/** The speaker's markets: PAIRS (the first `n`) with ids built by `id`. */
export function pairs(
  id: (base: string, quote: string) => string,
  n = PAIRS.length,
  extra?: (base: string, quote: string, id: string) => Readonly<Record<string, unknown>>,
): SpeakerMarket[] {
  return PAIRS.slice(0, n).map(([base, quote]) => {
    const mid = id(base, quote);
    return { id: mid, base, quote, extra: extra?.(base, quote, mid) };
  });
}
