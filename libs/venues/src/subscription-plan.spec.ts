import { describe, expect, it } from 'vitest';
import { planSubscriptions } from './subscription-plan';
import { DEFAULT_RULE, type VenueRule } from './venue-rule';

const venue = (r: Partial<VenueRule>) => ({ exchangeId: 'x', rule: { ...DEFAULT_RULE, ...r } });
const multi = { watchOrderBookForSymbols: true };

describe('planSubscriptions', () => {
  it('groups books by the venue rule, capped by the option, one per group without watchOrderBookForSymbols', () => {
    const symbols = Array.from({ length: 21 }, (_, i) => `S${String(i).padStart(2, '0')}/USDT`);
    const bybit = planSubscriptions(symbols, venue({ perRequest: 10 }), multi, 20);
    expect(bybit.groups.map((g) => g.symbols.length)).toEqual([10, 10, 1]);
    expect(bybit.groups.map((g) => g.multi)).toEqual([true, true, true]);
    expect(
      planSubscriptions(symbols, venue({ perRequest: 100 }), multi, 20).groups.map((g) => g.symbols.length),
    ).toEqual([20, 1]);
    expect(planSubscriptions(symbols, venue({ perRequest: 10 }), {}, 20).groups).toHaveLength(21);
  });

  it('publishes an alias from its target book and subscribes the target only', () => {
    const plan = planSubscriptions(
      ['BTC/USD', 'BTC/USDC', 'ETH/USDC'],
      venue({ perRequest: 20, aliases: { 'BTC/USDC': 'BTC/USD', 'ETH/USDC': 'ETH/USD' } }),
      multi,
      20,
    );
    expect(plan.groups.map((g) => g.symbols)).toEqual([['BTC/USD', 'ETH/USD']]);
    expect([...plan.aliasesOf]).toEqual([
      ['BTC/USD', ['BTC/USDC']],
      ['ETH/USD', ['ETH/USDC']],
    ]);
  });

  it('watches at most the books a connection may carry, naming the ones left out', () => {
    const plan = planSubscriptions(['A/B', 'C/D', 'E/F'], venue({ perConnection: 2 }), {}, 20);
    expect(plan.groups.flatMap((g) => g.symbols)).toEqual(['A/B', 'C/D']);
    expect(plan.warnings).toEqual(['the venue allows 2 books per connection; 1 skipped: E/F']);
  });
});
