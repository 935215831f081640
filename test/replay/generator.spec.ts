import { createHash } from 'node:crypto';
import { BookCache, type OrderBook } from '@app/books';
import { parseRecord, type EventRecord, type MarketRecord } from '@app/events';
import { routeRequest } from '@app/request';
import { SERVER_DEFAULTS } from '@app/config';
import { solveWithProof } from '@app/routing';
import { isWholeMultiple } from '@test/support';
import { describe, expect, it } from 'vitest';
import { ALT_MARKETS, generateMarket, orderRules, type MarketGenSpec } from '@app/synth';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

const SPEC: MarketGenSpec = {
  seed: 7,
  startAt: 1_786_300_000_000,
  durationMs: 60_000,
  gapsPerMinute: 20,
  reconnectsPerMinute: 10,
};
const STALE_MS = 10_000;

function bytes(spec: MarketGenSpec): string {
  const h = createHash('sha256');
  for (const r of generateMarket(spec)) h.update(`${JSON.stringify(r)}\n`);
  return h.digest('hex');
}

describe('seeded market generator', () => {
  const records: EventRecord[] = [...generateMarket(SPEC)];

  it('gives the same bytes for the same seed and different bytes for another seed', () => {
    const a = bytes(SPEC);
    expect(bytes(SPEC)).toBe(a);
    expect(bytes({ ...SPEC, seed: 8 })).not.toBe(a);
  });

  it('writes valid events.md records in receivedAt order over 60 venues and twelve markets', () => {
    let last = 0;
    for (const r of records) {
      const parsed = parseRecord(JSON.parse(JSON.stringify(r)));
      if (!parsed.ok) throw parsed.error;
      expect(r.receivedAt).toBeGreaterThanOrEqual(last);
      last = r.receivedAt;
    }
    const venues = new Set(records.map((r) => r.exchangeId));
    expect(venues.size).toBe(60);
    const symbols = new Set(records.flatMap((r) => (r.type === 'market' ? [r.symbol] : [])));
    expect([...symbols].sort()).toEqual([
      'BTC/USDC',
      'BTC/USDT',
      'ETH/BTC',
      'ETH/USDC',
      'ETH/USDT',
      'SOL/BTC',
      'SOL/USDC',
      'SOL/USDT',
      'USDC/USDT',
      'XRP/BTC',
      'XRP/USDC',
      'XRP/USDT',
    ]);
  });

  it('adds the SOL and XRP markets without changing a byte of the six others', () => {
    const alt = new Set(ALT_MARKETS.map((m) => m.symbol));
    const without = [...generateMarket({ ...SPEC, altMarkets: false })].map((r) => JSON.stringify(r));
    const kept = records
      .filter((r) => r.type === 'venue' || !alt.has(r.symbol))
      .map((r) => JSON.stringify(r));
    expect(kept.length).toBeLessThan(records.length);
    expect(kept).toEqual(without);
  });

  it('lists SOL and XRP like real venues: SOL/USDT almost everywhere, the BTC pairs on fewer venues', () => {
    const listed = (symbol: string): string[] =>
      records.flatMap((r) => (r.type === 'market' && r.symbol === symbol ? [r.exchangeId] : []));
    const counts = ALT_MARKETS.map((m) => listed(m.symbol).length);
    for (const n of counts) expect(n).toBeGreaterThan(0);
    for (const n of counts) expect(n).toBeLessThan(60);
    expect(listed('SOL/USDT').length).toBeGreaterThan(listed('SOL/BTC').length);
    expect(listed('XRP/USDT').length).toBeGreaterThan(listed('XRP/BTC').length);
    // Every tier-1 venue (sim00..sim07) lists SOL/USDT.
    expect(listed('SOL/USDT').filter((v) => v < 'sim08')).toHaveLength(8);
  });

  it('prices SOL and XRP consistently with BTC: cross rates agree across markets', () => {
    const mids = new Map<string, number>();
    for (const r of records) {
      if (r.type !== 'book' || !r.snapshot || r.receivedAt !== SPEC.startAt) continue;
      mids.set(`${r.exchangeId}|${r.symbol}`, (r.bids[0]![0] + r.asks[0]![0]) / 2);
    }
    const mid = (symbol: string): number[] =>
      [...mids].filter(([k]) => k.endsWith(`|${symbol}`)).map(([, v]) => v);
    const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const sol = median(mid('SOL/USDT'));
    const xrp = median(mid('XRP/USDT'));
    const btc = median(mid('BTC/USDT'));
    expect(sol).toBeGreaterThan(60);
    expect(sol).toBeLessThan(100);
    expect(xrp).toBeGreaterThan(1);
    expect(xrp).toBeLessThan(2);
    // Within a few ticks: XRP/BTC's tick is 1e-8 at about 2e-5, close to 5 bps.
    expect(Math.abs(median(mid('SOL/BTC')) / (sol / btc) - 1)).toBeLessThan(0.001);
    expect(Math.abs(median(mid('XRP/BTC')) / (xrp / btc) - 1)).toBeLessThan(0.001);
    expect(Math.abs(median(mid('SOL/USDC')) / sol - 1)).toBeLessThan(0.001);
  });

  it('uses taker fees between 0.05% and 0.25%', () => {
    const fees = records.flatMap((r) => (r.type === 'market' ? [r.takerFeeRate!] : []));
    expect(Math.min(...fees)).toBeGreaterThanOrEqual(0.0005);
    expect(Math.max(...fees)).toBeLessThanOrEqual(0.0025);
    expect(new Set(fees).size).toBeGreaterThan(3);
  });

  it('follows every sequence gap with a snapshot of that book, and every disconnect with a reconnect', () => {
    const seq = new Map<string, number>();
    const open = new Map<string, number>();
    let gaps = 0;
    for (const r of records) {
      if (r.type === 'venue') {
        if (!r.connected) open.set(r.exchangeId, r.receivedAt);
        else if (open.delete(r.exchangeId)) expect(r.reconnectCount).toBeGreaterThan(0);
        continue;
      }
      if (r.type !== 'book') continue;
      const k = `${r.exchangeId}|${r.symbol}`;
      const prev = seq.get(k);
      if (prev !== undefined && !r.snapshot && r.sequence !== prev + 1) {
        gaps++;
        const snap = records.find(
          (x) =>
            x.type === 'book' &&
            x.snapshot &&
            `${x.exchangeId}|${x.symbol}` === k &&
            x.receivedAt >= r.receivedAt,
        );
        expect(snap, `snapshot after gap ${k} #${r.sequence}`).toBeDefined();
        expect(snap!.receivedAt - r.receivedAt).toBeLessThanOrEqual(2_000);
      }
      seq.set(k, r.sequence);
    }
    expect(gaps).toBeGreaterThanOrEqual(5);
    const disconnects = records.filter((r) => r.type === 'venue' && !r.connected).length;
    expect(disconnects).toBeGreaterThanOrEqual(1);
  });

  it('never crosses a book, and never lets fresh books of two venues cross by more than their fees', () => {
    const cache = new BookCache();
    const fee = new Map<string, number>();
    const down = new Set<string>();
    let checks = 0;
    let i = 0;
    for (const r of records) {
      cache.apply(r);
      if (r.type === 'market') fee.set(`${r.exchangeId}|${r.symbol}`, r.takerFeeRate!);
      if (r.type === 'venue' && r.connected) down.delete(r.exchangeId);
      if (r.type === 'venue' && !r.connected) down.add(r.exchangeId);
      if (r.type !== 'book') continue;
      const b = cache.book(r.exchangeId, r.symbol)!;
      if (b.inSync) expect(b.crossed, `${r.exchangeId} ${r.symbol} #${r.sequence}`).toBe(false);
      if (++i % 97 !== 0) continue;
      const now = r.receivedAt;
      const usable = (ob: OrderBook | undefined): ob is OrderBook =>
        ob !== undefined &&
        ob.inSync &&
        !down.has(ob.exchangeId) &&
        now - ob.receivedAt <= STALE_MS &&
        ob.bids.count > 0 &&
        ob.asks.count > 0;
      const books = cache
        .venuesListing(r.symbol)
        .map((v) => cache.book(v, r.symbol))
        .filter(usable);
      for (const a of books)
        for (const b2 of books) {
          if (a === b2) continue;
          const bidNet = a.bids.price(0) * (1 - fee.get(`${a.exchangeId}|${r.symbol}`)!);
          const askNet = b2.asks.price(0) * (1 + fee.get(`${b2.exchangeId}|${r.symbol}`)!);
          expect(bidNet, `${a.exchangeId} bid vs ${b2.exchangeId} ask on ${r.symbol} at ${now}`).toBeLessThan(
            askNet,
          );
          checks++;
        }
    }
    expect(checks).toBeGreaterThan(10_000);
  });

  it('gives every venue order rules modelled on real venues, which shape its quotes', () => {
    const markets = records.filter((r): r is MarketRecord => r.type === 'market');
    expect(markets.every((m) => m.amountStep !== undefined)).toBe(true);
    // Six styles: lot filters, fine lots, eight lot decimals, minimum order values, coarse lots
    // with a market-order cap, and significant digits with no step.
    const btc = markets.filter((m) => m.symbol === 'BTC/USDT');
    expect(new Set(btc.map((m) => m.amountStep))).toEqual(new Set([0.00001, 1e-8, 0.0001, null]));
    expect(new Set(btc.map((m) => m.minCost))).toEqual(new Set([5, null, 0.5, 10]));
    expect(btc.find((m) => m.exchangeId === 'sim00')).toMatchObject(orderRules(1, 0, 'BTC/USDT')!);
    // SOL and XRP: lots of 0.01 SOL and 1 XRP, fine lots of 0.000001, eight decimals, no step.
    const steps = (symbol: string): Set<number | null | undefined> =>
      new Set(markets.filter((m) => m.symbol === symbol).map((m) => m.amountStep));
    expect(steps('SOL/USDT')).toEqual(new Set([0.01, 0.000001, 1e-8, null]));
    expect(steps('XRP/USDT')).toEqual(new Set([1, 0.000001, 1e-8, null]));
    // A quote at 30 s over the folded books: legs obey their markets, and the rules did work.
    const at = SPEC.startAt + 30_000;
    const cache = new BookCache();
    for (const r of records) if (r.receivedAt <= at) cache.apply(r);
    const rules = new Map(markets.map((m) => [`${m.exchangeId}|${m.symbol}`, m]));
    const request = routeRequest({
      requestId: 'demo',
      from: 'USDT',
      to: 'BTC',
      amount: 20_000,
      strategy: 'split_optimal',
    });
    const { result, proof } = solveWithProof({
      request,
      books: cache,
      now: at,
      config: DEFAULT_ROUTING_CONFIG,
    });
    expect(result.fullyFillable).toBe(true);
    for (const leg of result.hops[0]!.legs) {
      const m = rules.get(`${leg.exchangeId}|BTC/USDT`)!;
      if (m.amountStep != null) expect(isWholeMultiple(leg.amount, m.amountStep)).toBe(true);
      expect(leg.amount * leg.averagePrice).toBeGreaterThanOrEqual((m.minCost ?? 0) * (1 - 1e-12));
    }
    const hop = proof.candidates[proof.decision.winner!]!.hops[0]!;
    expect(hop.legs.some((l) => l.shapedBy === 'step')).toBe(true);
    expect(hop.venues.some((v) => v.droppedBecause !== null)).toBe(true);
  });

  it('rejects a bad spec with a clear error', () => {
    expect(() => [...generateMarket({ ...SPEC, durationMs: -1 })]).toThrow(
      /durationMs must be a positive integer/,
    );
    expect(() => [...generateMarket({ ...SPEC, venues: 0 })]).toThrow(/venues must be 1\.\.100/);
  });
});
