/** A ccxt spot market built offline (what loadMarkets would produce), for the `markets` option. */
export function spotMarket(id: string, base: string, quote: string, taker = 0.001): Record<string, unknown> {
  return {
    id,
    symbol: `${base}/${quote}`,
    base,
    quote,
    baseId: base,
    quoteId: quote,
    lowercaseId: id.toLowerCase(),
    type: 'spot',
    spot: true,
    margin: false,
    swap: false,
    future: false,
    option: false,
    contract: false,
    linear: undefined,
    inverse: undefined,
    active: true,
    taker,
    maker: taker,
    precision: { price: 1e-8, amount: 1e-8 },
    limits: {
      amount: { min: undefined, max: undefined },
      price: { min: undefined, max: undefined },
      cost: { min: undefined, max: undefined },
    },
    info: {},
  };
}

/** The `markets` option value: markets keyed by symbol. */
export function marketsOption(markets: readonly Record<string, unknown>[]): Record<string, unknown> {
  return Object.fromEntries(markets.map((m) => [m.symbol as string, m]));
}
