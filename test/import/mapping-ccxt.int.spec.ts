import { ccxtCatalog, SymbolMapper } from '@app/import';
import { describe, expect, it } from 'vitest';
import { CAPTURES_MISSING_MESSAGE, CAPTURES_PRESENT, readV1 } from '../venues/captures';

interface CcxtMarket {
  id: string;
  symbol: string;
  spot: boolean;
  info: Record<string, unknown>;
}
interface CcxtExchange {
  fetchImplementation: (url: string) => Promise<Response>;
  fetchMarkets(): Promise<CcxtMarket[]>;
}

/**
 * Real ccxt (the pinned class) loading markets from the market list a venue really served
 * (cryptofeed's capture); any other request it makes (derivatives lists, absent from the
 * capture) is answered with an empty list of that venue's shape.
 */
async function ccxtMarkets(id: string, file: string, empty: string): Promise<CcxtMarket[]> {
  const served = new Map<string, string>();
  for (const l of readV1(file)) if (l.t === 'http') served.set(l.url, l.data);
  const m = (await import('ccxt')) as { default?: unknown };
  const ccxt = (m.default ?? m) as Record<string, new (o: object) => CcxtExchange>;
  const exchange = new ccxt[id]!({ enableRateLimit: false });
  exchange.fetchImplementation = (url: string) =>
    Promise.resolve(
      new Response(served.get(url) ?? empty, { headers: { 'content-type': 'application/json' } }),
    );
  return (await exchange.fetchMarkets()).filter((x) => x.spot);
}

/** [tardis id, ccxt id, capture, empty answer, the symbol tardis.dev writes for a ccxt market] */
const VENUES: [string, string, string, string, (m: CcxtMarket) => string][] = [
  ['binance', 'binance', 'BINANCE.0', '{"symbols":[]}', (m) => m.id],
  ['binance-us', 'binanceus', 'BINANCE_US.0', '{"symbols":[]}', (m) => m.id],
  // tardis.dev records kraken's WebSocket feed, which names pairs by `wsname` (XBT/USD).
  ['kraken', 'kraken', 'KRAKEN.0', '{"error":[],"result":{}}', (m) => String(m.info.wsname)],
  ['okex', 'okx', 'OKX.0', '{"code":"0","data":[]}', (m) => m.id],
  ['gate-io', 'gate', 'GATEIO.0', '[]', (m) => m.id],
  ['upbit', 'upbit', 'UPBIT.0', '[]', (m) => m.id],
  // tardis.dev uppercases every symbol (gemini's own ids are lowercase).
  ['gemini', 'gemini', 'GEMINI.0', '[]', (m) => m.id.toUpperCase()],
];

describe.skipIf(!CAPTURES_PRESENT)('the symbol rules against ccxt on real market lists', () => {
  it.each(VENUES)(
    '%s: every symbol the rule maps is the one ccxt %s gives the market; the rest are left unmapped, never guessed',
    async (tardis, id, file, empty, native) => {
      const markets = await ccxtMarkets(id, file, empty);
      expect(markets.length).toBeGreaterThan(50);
      const mapper = new SymbolMapper(null, ccxtCatalog);
      const wrong: string[] = [];
      const unmapped: string[] = [];
      for (const market of markets) {
        const m = mapper.map(tardis, native(market));
        if (!m.ok) unmapped.push(native(market));
        else if (m.venue !== id || m.symbol !== market.symbol)
          wrong.push(`${native(market)}: ${m.symbol}, ccxt ${market.symbol}`);
      }
      expect(wrong).toEqual([]);
      // Ambiguous pairs only (ADAEUR: ADA/EUR or AD/AEUR), a few percent at most.
      expect(unmapped.length / markets.length).toBeLessThan(0.15);
    },
    60_000,
  );
});

if (!CAPTURES_PRESENT) console.warn(CAPTURES_MISSING_MESSAGE);
