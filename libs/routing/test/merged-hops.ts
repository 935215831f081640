import { BookCache } from '@app/books';
import { SERVER_DEFAULTS } from '@app/config';
import { routeRequest } from '@app/request';
import { demoRecording } from '@test/support';
import { hopContext, type VenueCtx } from '../src/hop-context';
import type { WalkSpec } from '../src/walk';
import { NOW, recordsFor } from './fixtures';
import { ruledScenario } from './scenarios';

// Hops for the merged walks with rules to be walked side by side (parked-legs.int.spec.ts,
// merged-lean.int.spec.ts): the demo recording's markets (60 venues with real-like order rules)
// from dust-prone to deep amounts, some venues funded, and the property tests' small ruled scenarios.

const ROUTING = SERVER_DEFAULTS.routing;

export interface Hop {
  readonly label: string;
  readonly venues: readonly VenueCtx[];
  readonly spec: WalkSpec;
  readonly caps: number[];
}

/** Hops over the demo's markets, both sides, pinned on either, from dust-prone to deep amounts. */
export function demoHops(): Hop[] {
  const { books, now } = demoRecording();
  const request = routeRequest({ requestId: 'parked', from: 'USDT', to: 'BTC', amount: 1 });
  const markets: [string, number][] = [
    ['BTC/USDT', 65_000],
    ['ETH/USDT', 3_200],
    ['SOL/USDT', 150],
    ['XRP/USDT', 0.5],
    ['ETH/BTC', 3_200],
    ['ETH/USDC', 3_200],
  ];
  const hops: Hop[] = [];
  for (const [symbol, usdtPerBase] of markets) {
    const [base, quote] = symbol.split('/') as [string, string];
    for (const inAsset of [quote, base]) {
      const hop = hopContext(symbol, inAsset, request, books, now, ROUTING);
      const quoteUsdt = quote === 'BTC' ? 65_000 : 1;
      for (const pinned of ['in', 'out'] as const)
        for (const usdt of [2_500, 250_000, 1_000_000, 4_000_000, 40_000_000]) {
          // The pinned side's asset: the input asset when pinned 'in', the output one otherwise.
          const asset = (pinned === 'in') === (inAsset === quote) ? quote : base;
          const amount = asset === base ? usdt / usdtPerBase : usdt / quoteUsdt;
          const spec: WalkSpec = { side: hop.side, pinned, amount };
          const label = `${symbol} ${hop.side} pinned ${pinned} ${usdt} USDT`;
          hops.push({ label, venues: hop.fresh, spec, caps: hop.fresh.map(() => Infinity) });
          // Funds on some venues: legs stopped by what a venue may spend.
          const caps = hop.fresh.map((_, i) =>
            i % 3 === 0 ? (amount * (pinned === 'in' ? 1 : usdtPerBase)) / 7 : Infinity,
          );
          hops.push({ label: `${label}, some venues funded`, venues: hop.fresh, spec, caps });
        }
    }
  }
  return hops;
}

/** The property tests' small ruled scenarios (5 venues), each hop of their request. */
export function scenarioHops(seeds: number): Hop[] {
  const hops: Hop[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const s = ruledScenario(seed);
    const books = new BookCache();
    for (const r of recordsFor(s.specs, NOW)) books.apply(r);
    for (const symbol of books.symbols()) {
      const [base, quote] = symbol.split('/') as [string, string];
      for (const inAsset of [quote, base]) {
        const hop = hopContext(symbol, inAsset, s.request, books, NOW, ROUTING);
        for (const pinned of ['in', 'out'] as const)
          for (const amount of [s.request.amount, s.request.amount * 40]) {
            const spec: WalkSpec = { side: hop.side, pinned, amount };
            hops.push({
              label: `seed ${seed} ${symbol} ${hop.side} ${pinned} ${amount}`,
              venues: hop.fresh,
              spec,
              caps: hop.fresh.map(() => Infinity),
            });
          }
      }
    }
  }
  return hops;
}
