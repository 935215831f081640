import { describe, expect, it } from 'vitest';
import { DECIMAL_PLACES, marketRules, rulesOfMarket, SIGNIFICANT_DIGITS, TICK_SIZE } from './market-rules';

// docs/venues.md "Order rules": the four rules of a market record from a ccxt market.

const market = (precision: unknown, limits: Record<string, unknown>) => ({
  precision: { amount: precision },
  limits,
});

describe('order rules from a ccxt market', () => {
  it('TICK_SIZE: the precision is the step; limits give the minimums and the maximum', () => {
    expect(
      rulesOfMarket(
        TICK_SIZE,
        market(0.00001, {
          amount: { min: 0.00001, max: 9000 },
          cost: { min: 5, max: 9e6 },
          price: { min: 0.01 },
        }),
      ),
    ).toEqual({ amountStep: 0.00001, minAmount: 0.00001, minCost: 5, maxAmount: 9000 });
  });

  it('DECIMAL_PLACES n is the step 10^-n, as a clean decimal', () => {
    expect(rulesOfMarket(DECIMAL_PLACES, market(3, {})).amountStep).toBe(0.001);
    expect(rulesOfMarket(DECIMAL_PLACES, market(8, {})).amountStep).toBe(1e-8);
    expect(rulesOfMarket(DECIMAL_PLACES, market(0, {})).amountStep).toBe(1);
    expect(rulesOfMarket(DECIMAL_PLACES, market(2.5, {})).amountStep).toBeNull();
  });

  it('SIGNIFICANT_DIGITS has no fixed step (bitfinex, bithumb)', () => {
    expect(rulesOfMarket(SIGNIFICANT_DIGITS, market(5, { amount: { min: 0.0004 } }))).toEqual({
      amountStep: null,
      minAmount: 0.0004,
      minCost: null,
      maxAmount: null,
    });
  });

  it("the venue's market-order limits tighten the order limits; 0 and undefined mean none", () => {
    // binance 2021, NKNUSDT: LOT_SIZE 1..9,000,000, MARKET_LOT_SIZE 0..691,026.0799166.
    const nkn = market(1, {
      amount: { min: 1, max: 9_000_000 },
      market: { min: 0, max: 691_026.0799166 },
      cost: { min: 10, max: undefined },
    });
    expect(rulesOfMarket(TICK_SIZE, nkn)).toEqual({
      amountStep: 1,
      minAmount: 1,
      minCost: 10,
      maxAmount: 691_026.0799166,
    });
    expect(
      rulesOfMarket(TICK_SIZE, market(1, { amount: { min: 1 }, market: { min: 5, max: undefined } }))
        .minAmount,
    ).toBe(5);
  });

  it('a market ccxt knows no rule of adds nothing to its record; junk values are unknown', () => {
    expect(marketRules({ precisionMode: TICK_SIZE }, { precision: {}, limits: {} })).toEqual({});
    expect(marketRules({ precisionMode: TICK_SIZE }, { symbol: 'BTC/USDT' })).toEqual({});
    expect(
      marketRules(
        { precisionMode: TICK_SIZE },
        market('0.1', { amount: { min: -1, max: Infinity }, cost: { min: NaN } }),
      ),
    ).toEqual({});
    expect(marketRules({ precisionMode: TICK_SIZE }, market(0.1, {}))).toEqual({
      amountStep: 0.1,
      minAmount: null,
      minCost: null,
      maxAmount: null,
    });
  });
});
