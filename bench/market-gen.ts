import { seeded } from '@app/synth';
import type { BookRecord, EventRecord, Level, MarketRuleField } from '@app/events';

/** Deterministic PRNG (mulberry32): same seed, same stream (the generator's, shared). */
export const prng = seeded;

/** The six markets of the routing benchmark and a mid price for each. */
export const BENCH_MARKETS: readonly { symbol: string; mid: number; tick: number; size: number }[] = [
  { symbol: 'BTC/USDT', mid: 65_000, tick: 0.1, size: 0.05 },
  { symbol: 'ETH/USDT', mid: 3_200, tick: 0.01, size: 1 },
  { symbol: 'ETH/BTC', mid: 3_200 / 65_000, tick: 0.000001, size: 1 },
  { symbol: 'BTC/USDC', mid: 65_010, tick: 0.1, size: 0.05 },
  { symbol: 'ETH/USDC', mid: 3_201, tick: 0.01, size: 1 },
  { symbol: 'USDC/USDT', mid: 0.9999, tick: 0.0001, size: 5_000 },
];

/**
 * Order rules on every bench market (docs/semantics.md section 13), of the size real venues use:
 * lot steps, minimum amounts and notionals, a market-order maximum.
 */
export const BENCH_RULES: Readonly<Record<string, Partial<Record<MarketRuleField, number>>>> = {
  'BTC/USDT': { amountStep: 0.00001, minAmount: 0.00001, minCost: 5, maxAmount: 100 },
  'ETH/USDT': { amountStep: 0.0001, minAmount: 0.0001, minCost: 5, maxAmount: 2000 },
  'ETH/BTC': { amountStep: 0.0001, minAmount: 0.0001, minCost: 0.0001, maxAmount: 2000 },
  'BTC/USDC': { amountStep: 0.00001, minAmount: 0.00001, minCost: 5, maxAmount: 100 },
  'ETH/USDC': { amountStep: 0.0001, minAmount: 0.0001, minCost: 5, maxAmount: 2000 },
  'USDC/USDT': { amountStep: 1, minAmount: 1, minCost: 5, maxAmount: 5_000_000 },
};

export const venueIds = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `venue${String(i).padStart(2, '0')}`);

/** One snapshot side of `levels` levels around `mid`, best first. */
export function sideLevels(
  rand: () => number,
  mid: number,
  tick: number,
  size: number,
  levels: number,
  dir: 1 | -1,
): Level[] {
  const out: Level[] = [];
  let ticks = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < levels; i++) {
    const price = Math.round((mid + dir * ticks * tick) / tick) * tick;
    out.push([+price.toPrecision(12), +(size * (0.2 + rand() * 2)).toPrecision(8)]);
    ticks += 1 + Math.floor(rand() * 2);
  }
  return out;
}

/** Market, venue and snapshot records for `venues` venues x BENCH_MARKETS with `levels` per side. */
export function benchSnapshots(venues: number, levels: number, now: number, seed = 42): EventRecord[] {
  const rand = prng(seed);
  const out: EventRecord[] = [];
  for (const exchangeId of venueIds(venues)) {
    out.push({
      v: 1,
      type: 'venue',
      exchangeId,
      certified: rand() < 0.3,
      connected: true,
      lastError: null,
      receivedAt: now,
    });
    for (const m of BENCH_MARKETS) {
      const [base, quote] = m.symbol.split('/') as [string, string];
      const fee = [0.0005, 0.001, 0.0015, 0.002][Math.floor(rand() * 4)]!;
      out.push({
        v: 1,
        type: 'market',
        exchangeId,
        symbol: m.symbol,
        base,
        quote,
        takerFeeRate: fee,
        receivedAt: now,
      });
      const mid = m.mid * (1 + (rand() - 0.5) * 0.0004);
      const book: BookRecord = {
        v: 1,
        type: 'book',
        exchangeId,
        symbol: m.symbol,
        snapshot: true,
        bids: sideLevels(rand, mid, m.tick, m.size, levels, -1),
        asks: sideLevels(rand, mid, m.tick, m.size, levels, 1),
        sequence: 1,
        exchangeTimestamp: now,
        receivedAt: now - Math.floor(rand() * 2000),
      };
      out.push(book);
    }
  }
  return out;
}
