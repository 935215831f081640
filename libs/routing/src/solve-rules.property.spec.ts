import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketRules } from '@app/books';
import { SERVER_DEFAULTS } from '@app/config';
import {
  solve,
  solveWithProof,
  type Balances,
  type RouteResult,
  type Side,
  type SolveInput,
} from '@app/routing';
import { isWholeMultiple, sumsExactly } from '@test/support';
import { cacheOf, CONFIG, NOW, req, type BookSpec } from '../test/fixtures';
import { ruledScenario } from '../test/scenarios';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// Executable legs (docs/semantics.md section 13), over generated books whose markets carry order
// rules: every leg is an order its venue accepts, amounts add up exactly, and a hop meets its
// pinned amount within the rounding dust exactly when an exhaustive search over the small books
// below says some executable allocation can.

type Rules = Partial<MarketRules>;
const rulesKey = (exchangeId: string, symbol: string) => `${exchangeId}|${symbol}`;

interface Seen {
  legs: number;
  dustRoutes: number;
  maxCut: number;
  bridged: number;
  shapedByMax: number;
  shapedByStep: number;
  dropped: number;
  searched: number;
}
const noneSeen = (): Seen => ({
  legs: 0,
  dustRoutes: 0,
  maxCut: 0,
  bridged: 0,
  shapedByMax: 0,
  shapedByStep: 0,
  dropped: 0,
  searched: 0,
});

function checkScenario(seed: number, seen: Seen): void {
  const { specs, request } = ruledScenario(seed);
  const rules = new Map(specs.map((b) => [rulesKey(b.exchangeId, b.symbol), b.rules]));
  const input: SolveInput = { request, books: cacheOf(specs), now: NOW, config: DEFAULT_ROUTING_CONFIG };
  const { result, proof } = solveWithProof(input);
  expect(JSON.stringify(result)).toBe(JSON.stringify(solve(input)));
  checkAmounts(result);
  const shown = proof.decision.hopsFrom === null ? [] : proof.candidates[proof.decision.hopsFrom]!.hops;
  for (const c of proof.candidates) for (const hop of c.hops) checkProofHop(hop, seen);
  result.hops.forEach((hop, h) => {
    const costs = new Map(shown[h]!.legs.map((l) => [l.exchangeId, l.cost]));
    for (const leg of hop.legs) {
      const r = rules.get(rulesKey(leg.exchangeId, hop.pair));
      checkOrder(r, leg.amount, costs.get(leg.exchangeId)!, `${seed} ${hop.pair} ${leg.exchangeId}`);
      seen.legs++;
      if (r?.maxAmount != null && leg.amount > r.maxAmount - (r.amountStep ?? 0)) seen.maxCut++;
    }
    for (const q of hop.quotes ?? []) {
      if (q.filledAmount === 0) continue;
      const r = rules.get(rulesKey(q.exchangeId, hop.pair));
      // The quote's cost read back as amount x average price (cost / amount): equal to the cost the
      // solver checked within the rounding of that division and product, a few units in the last place.
      checkOrder(
        r,
        q.filledAmount,
        q.filledAmount * q.averagePrice! * (1 + 4 * Number.EPSILON),
        `quote ${seed}`,
      );
    }
    const base = hop.side === 'buy' ? hop.amountOut : hop.amountIn;
    const legBases = hop.legs.map((l) => l.amount);
    if (hop.legs.every((l) => rules.get(rulesKey(l.exchangeId, hop.pair))?.amountStep != null))
      expect(sumsExactly(legBases, base), `${seed} base side of ${hop.pair}`).toBe(true);
    else
      expect(
        close(
          legBases.reduce((a, b) => a + b, 0),
          base,
          1e-12,
        ),
      ).toBe(true);
    const quoteSide = hop.legs.reduce(
      (t, l) => t + l.amount * l.averagePrice + (hop.side === 'buy' ? l.feeCost : -l.feeCost),
      0,
    );
    if (hop.legs.length > 0)
      expect(close(quoteSide, hop.side === 'buy' ? hop.amountIn : hop.amountOut, 1e-9)).toBe(true);
  });
  if (result.unroutableReason === null && result.hops.length === 2) seen.bridged++;
  if (result.fullyFillable && result.fillRatio < 1) {
    seen.dustRoutes++;
    checkDust(result, specs, rules);
  }
}

type HopProof = ReturnType<typeof solveWithProof>['proof']['candidates'][number]['hops'][number];

/** The proof of a hop under rules: per-level rows of each leg, the walk's own running sums. */
function checkProofHop(hop: HopProof, seen: Seen): void {
  const steps = hop.legs.flatMap((l) => l.levels.map((v) => v.step)).sort((a, b) => a - b);
  expect(steps).toEqual(steps.map((_, i) => i));
  for (const leg of hop.legs) {
    leg.levels.forEach((v, i) => {
      expect(v.level).toBe(i);
      if (i < leg.levels.length - 1) expect([v.stop, v.base]).toEqual(['level_exhausted', v.available]);
      expect(v.base).toBeLessThanOrEqual(v.available * (1 + 1e-12));
    });
    expect(leg.levels.at(-1)!.runningBase).toBe(leg.amount);
    expect(leg.levels.at(-1)!.runningCost).toBe(leg.cost);
    if (leg.steps !== null) expect(leg.rules?.amountStep).not.toBeNull();
    if (leg.shapedBy === 'max') seen.shapedByMax++;
    if (leg.shapedBy === 'step') seen.shapedByStep++;
  }
  const used = new Set(hop.legs.map((l) => l.exchangeId));
  for (const v of hop.venues) {
    if (v.droppedBecause !== null) {
      seen.dropped++;
      if (!hop.fillSearch) expect(used.has(v.exchangeId)).toBe(false);
    }
  }
  if (hop.fillSearch) seen.searched++;
}

const close = (a: number, b: number, rel: number) =>
  Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

/** One order as its venue's rules demand: whole steps, within minimum amount and cost and maximum. */
function checkOrder(r: Rules | undefined, amount: number, cost: number, what: string): void {
  if (r === undefined) return;
  // The router reads a step at 15 significant digits: 10 ** -5 (0.000009999999999999999) is 0.00001.
  if (r.amountStep != null)
    expect(isWholeMultiple(amount, Number(r.amountStep.toPrecision(15))), `${what}: ${amount}`).toBe(true);
  if (r.minAmount != null) expect(amount, what).toBeGreaterThanOrEqual(r.minAmount);
  if (r.minCost != null) expect(cost, what).toBeGreaterThanOrEqual(r.minCost);
  if (r.maxAmount != null) expect(amount, what).toBeLessThanOrEqual(r.maxAmount);
}

/** Route amounts are its hops', the fill figures agree, and only a real shortfall warns. */
function checkAmounts(r: RouteResult): void {
  expect(r.fillRatio).toBeLessThanOrEqual(1);
  expect(r.unfilledAmount).toBeGreaterThanOrEqual(0);
  const partial = r.warnings.some((w) => w.startsWith('partial_fill'));
  if (r.fullyFillable) expect(partial).toBe(false);
  if (r.unroutableReason !== null || r.hops.length === 0) return;
  expect(r.amountIn).toBe(r.hops[0]!.amountIn);
  expect(r.amountOut).toBe(r.hops.at(-1)!.amountOut);
  const achieved = r.exactSide === 'in' ? r.amountIn : r.amountOut;
  expect(close(achieved + r.unfilledAmount, r.requestedAmount, 1e-12)).toBe(true);
  expect(partial).toBe(r.fillRatio < 1 && !r.fullyFillable);
}

/** A shortfall reported as dust is less than one step of some venue used, at its worst price. */
function checkDust(r: RouteResult, specs: BookSpec[], rules: Map<string, Rules | undefined>): void {
  const hop = r.hops[0]!;
  const pinnedIsBase = (r.exactSide === 'in') === (hop.side === 'sell');
  let bound = 0;
  for (const leg of hop.legs) {
    const step = rules.get(rulesKey(leg.exchangeId, hop.pair))?.amountStep ?? 0;
    const spec = specs.find((b) => b.exchangeId === leg.exchangeId && b.symbol === hop.pair)!;
    const prices = (hop.side === 'buy' ? spec.asks : spec.bids)!.map(([p]) => p);
    bound += pinnedIsBase ? step : step * Math.max(...prices) * (1 + leg.takerFeeRate);
  }
  expect(r.unfilledAmount).toBeLessThan(bound);
}

describe('executable legs over generated books with rules (docs/semantics.md section 13)', () => {
  it('400 fixed scenarios: every leg and quote obeys its market, amounts are the sums of their legs', () => {
    const seen = noneSeen();
    for (let seed = 1; seed <= 400; seed++) checkScenario(seed, seen);
    // The set exercises what it claims: many legs, bridges, legs cut at a maximum, dust.
    expect(seen.legs).toBeGreaterThan(300);
    expect(seen.bridged).toBeGreaterThan(20);
    expect(seen.maxCut).toBeGreaterThan(10);
    expect(seen.dustRoutes).toBeGreaterThan(10);
    // ... and a proof that names the rule: steps, maximums, venues dropped, the fill search.
    expect(seen.shapedByStep).toBeGreaterThan(100);
    expect(seen.shapedByMax).toBeGreaterThan(10);
    expect(seen.dropped).toBeGreaterThan(20);
    expect(seen.searched).toBeGreaterThan(0);
  });

  it('scenarios random runs once failed on', () => {
    // The fill search's floor ends inside a level of a market without a step, the walk takes the
    // level's rest, and the two pieces do not add up to the level to the last bit: the proof read
    // that level as taken in part and threw (1100710934: less than the level; 1575734867: more).
    // 1148315423: a quote cut at the maximum of a market without a step passed it by a unit in
    // the last place. 1362320719: a quote exactly at its minimum cost, which this spec read back
    // 1e-12 short of it. 1087510909: after such a floor and rest the leg sat a unit in the last
    // place past the book's prefix, so the walk took each later level less that dust, and the proof
    // read the next level as taken in part and threw. 1710869329: a bridge's trim re-solved hop 1
    // on another venue at a worse price and spent more than the request (solver 1.2.2).
    // 1366545911: a leg set aside with dust left, whose funds stopped it at its last turn, was
    // balanceLimited in the answer with a proof and not in the one without (solver 1.2.3).
    for (const seed of [1100710934, 1575734867, 1148315423, 1362320719, 1087510909, 1710869329, 1366545911])
      checkScenario(seed, noneSeen());
  });

  it('random scenarios (fast-check)', () => {
    const seen = noneSeen();
    fc.assert(
      fc.property(fc.integer({ min: 401, max: 2 ** 31 - 1 }), (seed) => checkScenario(seed, seen)),
      { numRuns: 300 },
    );
  });
});

// The exhaustive search: one market, up to three venues, a few levels, coarse steps, so that every
// allocation of whole steps can be enumerated.

interface SmallVenue {
  readonly id: string;
  readonly fee: number;
  readonly levels: [number, number][];
  readonly rules: {
    amountStep: number;
    minAmount: number | null;
    minCost: number | null;
    maxAmount: number | null;
  };
}

const smallVenue = (id: string) =>
  fc.record({
    id: fc.constant(id),
    fee: fc.constantFrom(0, 0.001),
    levels: fc
      .array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 })), {
        minLength: 1,
        maxLength: 3,
      })
      .map((ls) => {
        let p = 100;
        return ls.map(([dp, q]): [number, number] => {
          p += dp / 4;
          return [p, q / 4];
        });
      }),
    rules: fc.record({
      amountStep: fc.constantFrom(0.25, 0.5, 1, 2),
      minAmount: fc.option(fc.constantFrom(0.5, 0.75, 1, 2, 3), { nil: null, freq: 1 }),
      minCost: fc.option(fc.constantFrom(40, 90, 150, 300), { nil: null, freq: 1 }),
      maxAmount: fc.option(fc.constantFrom(0.5, 1.25, 2, 4), { nil: null, freq: 2 }),
    }),
  });

const smallBooks = fc
  .integer({ min: 1, max: 3 })
  .chain((n) => fc.tuple(...['a', 'b', 'c'].slice(0, n).map(smallVenue)));

/** Steps, pinned value and input of the first k whole steps of a venue, per k, within its book. */
function profile(v: SmallVenue, side: Side, pinnedIn: boolean, cap: number) {
  const step = v.rules.amountStep;
  const out: { pinned: number; ok: boolean }[] = [{ pinned: 0, ok: true }];
  const maxSteps = v.rules.maxAmount === null ? Infinity : Math.floor(v.rules.maxAmount / step + 1e-9);
  for (let k = 1; k <= maxSteps; k++) {
    const base = k * step;
    let cumBase = 0;
    let cumCost = 0;
    let cost: number | null = null;
    for (const [p, a] of v.levels) {
      if (cumBase + a >= base - 1e-12) {
        cost = cumCost + (base - cumBase) * p;
        break;
      }
      cumBase += a;
      cumCost += a * p;
    }
    if (cost === null) break;
    const input = side === 'buy' ? cost * (1 + v.fee) : base;
    if (input > cap * (1 + 1e-12)) break;
    const pinned = pinnedIn ? input : side === 'buy' ? base : cost * (1 - v.fee);
    const ok = base >= (v.rules.minAmount ?? 0) && cost >= (v.rules.minCost ?? 0);
    out.push({ pinned, ok });
  }
  return out;
}

/** Whether some allocation of whole steps (over at most `maxUsed` venues) meets `amount` within the dust. */
function oracleMeets(profiles: ReturnType<typeof profile>[], amount: number, maxUsed: number): boolean {
  const ks = profiles.map(() => 0);
  const search = (v: number, used: number): boolean => {
    if (v === profiles.length) {
      let total = 0;
      for (let i = 0; i < ks.length; i++) total += profiles[i]![ks[i]!]!.pinned;
      if (used === 0 || total > amount * (1 + 1e-12)) return false;
      const left = amount - total;
      if (left <= amount * 1e-12) return true;
      return ks.some((k, i) => {
        const p = profiles[i]!;
        return k > 0 && k + 1 < p.length && left < p[k + 1]!.pinned - p[k]!.pinned;
      });
    }
    const p = profiles[v]!;
    for (let k = 0; k < p.length; k++) {
      if (k > 0 && (!p[k]!.ok || used >= maxUsed)) continue;
      ks[v] = k;
      if (search(v + 1, used + (k > 0 ? 1 : 0))) return true;
    }
    ks[v] = 0;
    return false;
  };
  return search(0, 0);
}

describe('the pinned amount is met within the dust whenever an exhaustive search says it can be', () => {
  const cases = fc.record({
    venues: smallBooks,
    side: fc.constantFrom<Side>('buy', 'sell'),
    pinnedIn: fc.boolean(),
    size: fc.integer({ min: 1, max: 24 }),
    strategy: fc.constantFrom('split_optimal' as const, 'best_single' as const),
    cap: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null, freq: 2 }),
  });

  it('split_optimal and best_single, exact-in and exact-out, with and without balances', () => {
    const tally = { met: 0, short: 0, dust: 0 };
    fc.assert(
      fc.property(cases, ({ venues, side, pinnedIn, size, strategy, cap }) => {
        const pinnedIsBase = pinnedIn === (side === 'sell');
        const amount = pinnedIsBase ? size / 4 : size * 25;
        const capIn = cap === null ? Infinity : side === 'buy' ? cap * 100 : cap / 2;
        // The walked side, best first: asks rising from 100, or bids falling from 100.
        const walked = venues.map((v) => ({
          ...v,
          levels: side === 'buy' ? v.levels : v.levels.map(([p, a]): [number, number] => [200 - p, a]),
        }));
        const specs: BookSpec[] = walked.map((v) => ({
          exchangeId: v.id,
          symbol: 'X/USD',
          [side === 'buy' ? 'asks' : 'bids']: v.levels,
          fee: v.fee,
          rules: v.rules,
        }));
        const balances: Balances | null =
          cap === null ? null : { default: { [side === 'buy' ? 'USD' : 'X']: capIn }, perVenue: {} };
        const request = req({
          from: side === 'buy' ? 'USD' : 'X',
          to: side === 'buy' ? 'X' : 'USD',
          amount,
          exactSide: pinnedIn ? 'in' : 'out',
          strategy,
          bridges: [],
          includeQuotes: false,
          balances,
        });
        const r = solve({ request, books: cacheOf(specs), now: NOW, config: CONFIG });
        const profiles = walked.map((v) => profile(v, side, pinnedIn, capIn));
        const can = oracleMeets(profiles, amount, strategy === 'best_single' ? 1 : venues.length);
        expect(r.fullyFillable, JSON.stringify({ venues, side, pinnedIn, amount, strategy, capIn })).toBe(
          can,
        );
        if (can) tally.met++;
        else tally.short++;
        if (r.fullyFillable && r.fillRatio < 1) tally.dust++;
      }),
      { numRuns: 1500 },
    );
    // Both outcomes, and dust, occur often enough for the equivalence to mean something.
    expect(tally.met).toBeGreaterThan(200);
    expect(tally.short).toBeGreaterThan(200);
    expect(tally.dust).toBeGreaterThan(100);
  });
});
