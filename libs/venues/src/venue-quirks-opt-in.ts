import { rule, type VenueRule } from './venue-rule';

/**
 * Venues left out of the defaults (default-venues.ts EXCLUDED_VENUES says why): public books need
 * keys in ccxt, the venue lists no market of the default asset universe, or ccxt builds its books
 * wrong. They run when VENUES_CONFIG names them, with the default rule.
 */
export const OPT_IN_VENUE_RULES: Readonly<Record<string, VenueRule>> = {
  cex: rule({
    credentials: 'ccxt pro/cex.js watchOrderBook authenticates before subscribing',
    sources: ['ccxt pro/cex.js watchOrderBook: await this.authenticate()'],
  }),
  coinbaseexchange: rule({
    credentials: 'ccxt pro/coinbaseexchange.js watchOrderBook signs the subscription (authenticate)',
    sources: ['ccxt pro/coinbaseexchange.js authenticate: checkRequiredCredentials'],
  }),
  coincheck: rule({
    noDefaultMarket: 'JPY markets only',
    sources: ['ccxt coincheck.js describe: markets fixed to */JPY'],
  }),
  coinone: rule({
    noDefaultMarket: 'KRW markets only',
    sources: ['ccxt coinone.js fetchMarkets: quote_currency KRW only'],
  }),
  luno: rule({
    credentials: 'ccxt pro/luno.js watchOrderBook checks credentials',
    sources: ['ccxt pro/luno.js watchOrderBook: checkRequiredCredentials'],
  }),
  ndax: rule({
    noDefaultMarket:
      "ccxt 4.5.84 drops the book's snapshot: its books hold only the levels changed since subscribing",
    sources: [
      'ccxt pro/ndax.js handleOrderBookSubscription: parseOrderBook over the SubscribeLevel2 rows (an array) yields an empty book',
    ],
  }),
  woo: rule({
    credentials: 'the public socket URL carries the application id (uid)',
    sources: ['ccxt pro/woo.js watchPublic: urls.api.ws.public + "/" + uid'],
  }),
};
