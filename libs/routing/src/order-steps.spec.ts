import { describe, expect, it } from 'vitest';
import { solve } from '@app/routing';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';
import { decimalOf, stepsIn, orderSteps } from './order-steps';

// The step as an exact decimal (docs/semantics.md section 13), and rules a hostile recording might carry.

describe('a step as m x 10^-d', () => {
  it('reads the shortest decimal text, rounded to 15 significant digits', () => {
    expect(decimalOf(0.001)).toEqual({ m: 1, d: 3 });
    expect(decimalOf(1e-8)).toEqual({ m: 1, d: 8 });
    expect(decimalOf(0.25)).toEqual({ m: 25, d: 2 });
    expect(decimalOf(5)).toEqual({ m: 5, d: 0 });
    expect(decimalOf(1e3)).toEqual({ m: 1000, d: 0 });
    // Float noise in a venue's step: 0.1 + 0.2 and 10 ** -5 read as the decimals meant.
    expect(decimalOf(0.1 + 0.2)).toEqual({ m: 3, d: 1 });
    expect(decimalOf(10 ** -5)).toEqual({ m: 1, d: 5 });
    expect(decimalOf(1e-30)).toBeNull();
    expect(decimalOf(1e300)).toBeNull();
  });

  it('counts whole steps of a float depth, a hair short counting as reached', () => {
    expect(stepsIn(0.1 + 0.2, 1, 10)).toBe(3);
    expect(stepsIn(0.3, 1, 10)).toBe(3);
    expect(stepsIn(0.29999999999999993, 1, 10)).toBe(3);
    expect(stepsIn(0.2999, 1, 10)).toBe(2);
    expect(stepsIn(0, 1, 10)).toBe(0);
  });

  it('floors maxAmount to whole steps and keeps every leg under 10^15 units', () => {
    const r = orderSteps({ amountStep: 0.1, minAmount: null, minCost: null, maxAmount: 9053.11035441 })!;
    expect([r.maxSteps, r.maxBase]).toEqual([90531, 9053.1]);
    expect(orderSteps({ amountStep: 1e-8, minAmount: null, minCost: null, maxAmount: null })!.maxBase).toBe(
      9_999_999.99999999,
    );
  });
});

describe('rules a hostile recording might carry', () => {
  const book = (rules: BookSpec['rules']): BookSpec[] => [
    { exchangeId: 'a', symbol: 'BTC/USDT', asks: [[100, 5]], bids: [[99, 5]], rules },
  ];
  const buy = req({ from: 'USDT', to: 'BTC', amount: 200, bridges: [] });

  it('a step too coarse to count allows no order; one too fine is no step', () => {
    expect(
      solve({ request: buy, books: cacheOf(book({ amountStep: 1e300 })), now: NOW, config: CONFIG })
        .unroutableReason,
    ).toBe('no_liquidity');
    const fine = solve({
      request: buy,
      books: cacheOf(book({ amountStep: 1e-300 })),
      now: NOW,
      config: CONFIG,
    });
    expect([fine.amountIn, fine.fullyFillable]).toEqual([200, true]);
  });

  it('minimums no order can meet, and a maximum under one step, leave nothing executable', () => {
    for (const rules of [{ minAmount: 1e300 }, { minCost: 1e300 }, { amountStep: 1, maxAmount: 0.5 }])
      expect(
        solve({ request: buy, books: cacheOf(book(rules)), now: NOW, config: CONFIG }).unroutableReason,
      ).toBe('no_liquidity');
  });
});
