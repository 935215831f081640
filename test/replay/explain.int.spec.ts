import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findQuotes, quoteDecay, replayInput } from '@app/audit';
import type { EventRecord } from '@app/events';
import { createBookFeed, type LogBookFeed } from '@app/live-feed';
import { EmbeddedLog, logSink } from '@app/event-log';
import { routeRequest } from '@app/request';
import {
  solve,
  type ConstraintCosts,
  type RouteRequest,
  type RoutingConfig,
  type SolveProof,
} from '@app/routing';
import type { QuoteDecay } from '@app/audit';
import { book, market, T0, venue, waitFor } from '@test/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalSolved } from './support/journal-entries';
import { runReplayCli } from './support/run-replay';

// `replay explain` on a log small enough to follow by hand (the worked example of docs/explain.md):
// sell 2.5 ETH for USDT, split_optimal, staleness penalty 1 bps, hop penalty 5 bps.

const ROUTING: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 };
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const NOW = T0 + 20_000;

/** a fresh; b 4 s old; d 20 s old (stale); c the BTC bridge. */
const RECORDS: EventRecord[] = [
  ...['a', 'b', 'c', 'd'].map((v) => venue(v)),
  market('a', 'ETH/USDT', 0.001),
  market('b', 'ETH/USDT', 0.002),
  market('d', 'ETH/USDT', 0.001),
  market('c', 'ETH/BTC', 0),
  market('c', 'BTC/USDT', 0),
  book('d', 'ETH/USDT', [[1999, 1]], [[2012, 1]], 1, T0),
  book('b', 'ETH/USDT', [[1995, 1]], [[2011, 1]], 1, NOW - 4000),
  book(
    'a',
    'ETH/USDT',
    [
      [2000, 1],
      [1990, 5],
    ],
    [[2010, 1]],
    1,
    NOW,
  ),
  book('c', 'ETH/BTC', [[0.05, 10]], [[0.06, 10]], 1, NOW),
  book('c', 'BTC/USDT', [[39_880, 1]], [[40_000, 1]], 1, NOW),
];

/**
 * What the log records after the quotes: a's bids drop to 1990 x 1, 1980 x 5 at +2 s; fresh
 * snapshots of a (1980 x 2) and b (1985 x 1) at +25 s; a last record at +40 s.
 */
const LATER: EventRecord[] = [
  book(
    'a',
    'ETH/USDT',
    [
      [1990, 1],
      [1980, 5],
    ],
    [[2010, 1]],
    2,
    NOW + 2000,
  ),
  book('a', 'ETH/USDT', [[1980, 2]], [[2010, 1]], 3, NOW + 25_000),
  book('b', 'ETH/USDT', [[1985, 1]], [[2011, 1]], 2, NOW + 25_000),
  book('c', 'BTC/USDT', [[39_880, 1]], [[40_000, 1]], 2, NOW + 40_000),
];

const sell = (requestId: string, over: Partial<RouteRequest> = {}): RouteRequest =>
  routeRequest({
    requestId,
    from: 'ETH',
    to: 'USDT',
    amount: 2.5,
    strategy: 'split_optimal',
    bridges: ['BTC'],
    hopPenaltyBps: 5,
    ...over,
  });

interface ExplainJson {
  requestId: string;
  identical: boolean;
  result: { amountOut: number };
  proof: SolveProof;
  constraintCosts: ConstraintCosts;
}

describe('replay explain <requestId>', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-explain-'));
  let log: EmbeddedLog;
  let feed: LogBookFeed;

  beforeAll(async () => {
    log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
    feed = createBookFeed({ log, logger: QUIET });
    await feed.start();
    await logSink(log).write(RECORDS);
    await waitFor('the feed folded every book', () => feed.cache.book('c', 'BTC/USDT') !== undefined, 10_000);
    await journalSolved(log, feed, [sell('plain'), sell('floor', { minLegNotional: 2000 })], NOW, ROUTING);
    await logSink(log).write(LATER);
  }, 30_000);

  afterAll(async () => {
    await feed.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const json = async (id: string): Promise<ExplainJson> => {
    const r = await runReplayCli(['explain', id, '--json', '--data-dir', dir]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    return JSON.parse(r.out) as ExplainJson;
  };

  it('proves the journalled quote level by level, the levels summing to each leg', async () => {
    const e = await json('plain');
    expect(e.identical).toBe(true);
    // The merged walk takes a@2000 x 1, b@1995 x 1 (ranked 1995 * 0.998 * 0.9998), then 0.5 of a@1990.
    const hop = e.proof.candidates[0]!.hops[0]!;
    expect(hop.legs.map((l) => [l.exchangeId, l.amount, l.cost])).toEqual([
      ['a', 1.5, 2995],
      ['b', 1, 1995],
    ]);
    expect(hop.legs[0]!.levels.map((l) => [l.step, l.price, l.base, l.runningBase, l.runningCost])).toEqual([
      [0, 2000, 1, 1, 2000],
      [2, 1990, 0.5, 1.5, 2995],
    ]);
    for (const leg of hop.legs) {
      expect(leg.levels.reduce((s, l) => s + l.base, 0)).toBeCloseTo(leg.amount, 12);
      expect(leg.levels.reduce((s, l) => s + l.cost, 0)).toBeCloseTo(leg.cost, 9);
    }
    // a: 2995 * 0.999 = 2992.005; b: 1995 * 0.998 = 1991.01; together 4983.015.
    expect(hop.legs[0]!.amountOut).toBeCloseTo(2992.005, 9);
    expect(hop.legs[1]!.amountOut).toBeCloseTo(1991.01, 9);
    expect(e.result.amountOut).toBeCloseTo(4983.015, 9);
    expect(hop.venues.find((v) => v.exchangeId === 'd')!.notFreshBecause).toBe('stale');
    // Via BTC: 0.125 BTC then 4985 USDT, scored 4985 * 0.9995 = 4982.5075 < 4983.015.
    const bridge = e.proof.candidates[1]!;
    expect(bridge.amountOut).toBeCloseTo(4985, 9);
    expect(bridge.score!.score).toBeCloseTo(4982.5075, 9);
    expect(e.proof.decision).toMatchObject({ winner: 0, rule: 'higher_score', runnerUp: 1 });
    expect(e.proof.decision.marginBps!).toBeCloseTo((4983.015 / 4982.5075 - 1) * 10_000, 9);
  });

  it('prices every strategy, path and active constraint on the same snapshot', async () => {
    const c = (await json('plain')).constraintCosts;
    const bridgeBps = (1 - 4983.015 / 4985) * 10_000; // 3.98 bps
    // best_single: a alone gives 4985 * 0.999 = 4980.015, scored below the bridge's 4982.5075.
    expect(c.strategies.map((s) => [s.name, s.current])).toEqual([
      ['best_single', false],
      ['split_optimal', true],
      ['split_capped', false],
    ]);
    expect(c.strategies[0]!.value).toBeCloseTo(4985, 9);
    expect(c.strategies[0]!.costBps!).toBeCloseTo(bridgeBps, 9);
    // split_capped with maxVenues 3 takes the same two venues.
    expect(c.strategies[2]!.value).toBeCloseTo(4983.015, 9);
    expect(c.strategies[2]!.costBps!).toBeCloseTo(0, 12);
    expect(c.paths.map((p) => [p.pairs.join('>'), p.chosen])).toEqual([
      ['ETH/USDT', true],
      ['ETH/BTC>BTC/USDT', false],
    ]);
    expect(c.paths[1]!.costBps!).toBeCloseTo(bridgeBps, 9);
    // The staleness penalty does not reorder b and a@1990 (1991.01 vs 1988.01): it costs nothing.
    expect(c.constraints.map((k) => [k.name, k.costBps])).toEqual([['stalenessPenalty', 0]]);
  });

  it('shows a floor that flips the route to the bridge, with its cost', async () => {
    const e = await json('floor');
    // b's 1995 is under the 2000 floor: a alone gives 4980.015 direct, so the bridge (4982.5075) wins.
    expect(e.proof.decision).toMatchObject({ winner: 1, rule: 'higher_score' });
    expect(e.result.amountOut).toBeCloseTo(4985, 9);
    const floor = e.constraintCosts.constraints.find((k) => k.name === 'minLegNotional')!;
    expect(floor.value).toBeCloseTo(4983.015, 9);
    expect(floor.costBps!).toBeCloseTo((1 - 4985 / 4983.015) * 10_000, 9); // -3.98 bps
  });

  it('re-prices the same legs 1 s, 5 s and 30 s later (quote decay)', async () => {
    const e = (await json('plain')) as ExplainJson & { decay: QuoteDecay };
    // Quoted: a 1.5 ETH for 2995 (x 0.999) and b 1 ETH for 1995 (x 0.998): 4983.015 for 2.5 ETH.
    expect(e.decay.rate).toBeCloseTo(4983.015 / 2.5, 9);
    const [s1, s5, s30] = e.decay.points;
    // +1 s: nothing changed (b is 5 s old, still fresh): 0 bps.
    expect(s1).toMatchObject({ afterMs: 1000, problem: null });
    expect(s1!.bps!).toBeCloseTo(0, 9);
    // +5 s: a now 1990 x 1 + 1980 x 0.5 = 2980 -> 2977.02; b unchanged 1991.01: 4968.03.
    expect(s5!.rate!).toBeCloseTo(4968.03 / 2.5, 9);
    expect(s5!.bps!).toBeCloseTo((4968.03 / 4983.015 - 1) * 10_000, 9); // -30.07 bps
    // +30 s: a 1.5 x 1980 = 2970 -> 2967.03; b 1985 -> 1981.03: 4948.06.
    expect(s30!.bps!).toBeCloseTo((4948.06 / 4983.015 - 1) * 10_000, 9); // -70.15 bps
  });

  it('says when the log ends before a horizon', async () => {
    // The last record is at +40 s: a horizon of 60 s lies beyond it.
    const [occ] = await findQuotes(log, 'plain');
    if (occ === undefined || !occ.ok) throw new Error('plain is journalled');
    const { input } = await replayInput(log, occ.record);
    const d = await quoteDecay(log, occ.record, solve(input), [1000, 60_000]);
    expect(d.points.map((p) => p.problem)).toEqual([null, 'beyond_log']);
    expect(d.points[1]!.rate).toBeNull();
  });

  it('replay decay: per pair and size, the mean bps, the share holding and the half-life', async () => {
    const r = await runReplayCli(['decay', '--from', String(NOW), '--to', String(NOW), '--data-dir', dir]);
    expect(r.code).toBe(0);
    // Both quotes sell 2.5 ETH. 'floor' took the BTC bridge, whose books never change: 0 bps, until
    // +30 s, when its ETH/BTC book is 30 s old (stale) and the leg cannot be priced. 'plain' holds
    // at +1 s, then -30.07 and -70.15 bps: at +5 s half the group holds, so the half-life is 5 s.
    expect(r.out).toBe(
      'ETH->USDT exact-in 2.5: 2 quotes; +1 s 0.00 bps (100% hold, 2); +5 s -15.04 bps (50% hold, 2); +30 s -70.15 bps (0% hold, 1); half-life 5.0 s\n',
    );
  });

  it('prints the same as text', async () => {
    const r = await runReplayCli(['explain', 'plain', '--data-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('replay identical');
    expect(r.out).toContain('step 2 level 1: 0.5 of 5 @ 1990 = 995; running 1.5 / 2995 (amount_met)');
    expect(r.out).toContain('decision: candidate 0 wins (higher_score), runner-up 1, margin +1.02 bps');
    expect(r.out).toContain(
      'stalenessPenalty: without it the route would give 4983.015 USDT (fill 1), a difference of +0.00 bps',
    );
  });

  it('exits 3 for a requestId that was never journalled', async () => {
    const r = await runReplayCli(['explain', 'nope', '--data-dir', dir]);
    expect(r.code).toBe(3);
    expect(r.err.join('\n')).toMatch(/no journal record/);
  });
});
