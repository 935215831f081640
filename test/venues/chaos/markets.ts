import * as ccxt from 'ccxt';
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

/**
 * ccxt's `urls.api` of venue `id` with every URL pointed at the local server: `wss://host/path`
 * becomes `<ws>/host/path` and `https://host/path` `<http>/host/path` (placeholders such as
 * `{hostname}` are kept for ccxt to fill), so nothing the class dials leaves the machine.
 */
export function localApiUrls(
  id: string,
  local: { readonly http: string; readonly ws: string },
): Record<string, unknown> {
  const Pro = (ccxt.pro as unknown as Record<string, new () => { urls: Record<string, unknown> }>)[id];
  if (Pro === undefined) throw new Error(`no ccxt pro class ${id}`);
  const map = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^(wss?|https?):\/\/(.*)$/.exec(v);
      if (m === null) return v;
      return `${m[1]!.startsWith('ws') ? local.ws : local.http}/${m[2]}`;
    }
    if (Array.isArray(v)) return v.map(map);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, map(x)]));
    return v;
  };
  const urls = new Pro().urls;
  // Most classes keep their URLs under urls.api; a few (bitopro) keep websockets under urls.ws.
  const out: Record<string, unknown> = { api: map(urls.api) };
  if (urls.ws !== undefined) out.ws = map(urls.ws);
  return out;
}

/** The usual ccxt options of a speaker: every URL local, its markets injected, ccxt's re-dial backoff short. */
export function localCcxt(
  id: string,
  local: { readonly http: string; readonly ws: string },
  markets: readonly SpeakerMarket[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const { options, ...rest } = extra as { options?: Record<string, unknown> };
  return {
    urls: localApiUrls(id, local),
    markets: injectedMarkets(markets),
    options: { ws: FAST_WS, ...(options ?? {}) },
    ...rest,
  };
}
