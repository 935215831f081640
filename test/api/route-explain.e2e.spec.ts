import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConstraintCosts, Counterfactual, RouteRequest, SolveProof, StrategyCost } from '@app/routing';
import { call, type Answer } from './support/http';
import { startTestServer, type TestServer } from './support/server';

// GET /route/explain over the frozen fixture world (test/api/support/world.ts, clock pinned at T0):
// every counterfactual it reports must be what the corresponding direct GET /route answers on the
// same snapshot. The staleness row changes server configuration, so its direct request goes to a
// second server on the same records with STALENESS_PENALTY_BPS=0.

let s: TestServer;
let noPenalty: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  noPenalty = await startTestServer({
    routing: { staleBookMs: 10_000, stalenessPenaltyBps: 0, defaultTakerFeeRate: 0.001 },
  });
});
afterAll(async () => {
  await s.close();
  await noPenalty.close();
});

type Query = Record<string, string>;
const qs = (q: Query): string => new URLSearchParams(q).toString();
const get = (base: string, path: string, q: Query, id: string): Promise<Answer> =>
  call(base, `${path}?${qs(q)}`, { headers: { 'x-request-id': id } });

/** The /route query of `q` with a counterfactual's request change applied. */
function changed(q: Query, change: Partial<RouteRequest>): Query {
  const out = { ...q };
  for (const [k, v] of Object.entries(change) as [string, unknown][]) {
    if ((k === 'balances' || k === 'exchanges') && v === null) delete out[k];
    else if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new Error(`no /route parameter for the change ${k}=${JSON.stringify(v)}`);
    else out[k === 'certifiedOnly' ? 'certified' : k] = String(v);
  }
  return out;
}

interface Explained {
  result: Record<string, unknown>;
  proof: SolveProof;
  constraintCosts: ConstraintCosts;
}

const CASES: Record<string, Query> = {
  // Buy BTC with every kind of constraint on: a cap, a floor, balances, certified, an allowlist.
  capped: {
    from: 'USDT',
    to: 'BTC',
    amountIn: '250',
    strategy: 'split_capped',
    maxVenues: '1',
    minLegNotional: '50',
    balances: 'USDT:240',
    exchanges: 'alpha,beta',
    requireFullFill: 'true',
  },
  certified: { from: 'USDT', to: 'BTC', amountIn: '150', strategy: 'split_optimal', certified: 'true' },
  split: { from: 'BTC', to: 'USDT', amountIn: '2.5', strategy: 'split_optimal', minLegNotional: '120' },
  bridged: { from: 'USDT', to: 'ETH', amountIn: '150', strategy: 'best_single' },
  exactOut: { from: 'USDT', to: 'BTC', amountOut: '1.5', strategy: 'split_optimal', exchanges: 'alpha,beta' },
};

describe('GET /route/explain', () => {
  for (const [name, q] of Object.entries(CASES)) {
    it(`${name}: the result is GET /route's, and every counterfactual is the direct request's`, async () => {
      const id = `explain-${name}`;
      const e = await get(s.url, '/route/explain', q, id);
      expect(e.status).toBe(200);
      const body = e.body as Explained;
      const direct = await get(s.url, '/route', q, id);
      expect(body.result).toEqual(direct.body);
      expect(body.proof.requestId).toBe(id);

      const rows: (Counterfactual | StrategyCost)[] = [
        ...body.constraintCosts.strategies.filter((r) => !r.current),
        ...body.constraintCosts.constraints,
      ];
      expect(rows.length).toBeGreaterThan(1);
      for (const row of rows) {
        const target = Object.keys(row.configChange).length === 0 ? s : noPenalty;
        expect(row.configChange).toEqual(target === s ? {} : { stalenessPenaltyBps: 0 });
        const answer = await get(target.url, '/route', changed(q, row.requestChange), id);
        expect(answer.body, `${name}: ${row.name}`).toEqual(row.result);
        const r = answer.body as { amountOut: number; amountIn: number };
        expect(row.value).toBe(q.amountOut === undefined ? r.amountOut : r.amountIn);
      }
      // The direct path's row is what the request without bridges gives.
      const directPath = body.constraintCosts.paths.find((p) => p.bridge === null);
      if (directPath !== undefined) {
        const none = await get(s.url, '/route', { ...q, bridges: '' }, id);
        expect(none.body.amountOut).toBe(directPath.amountOut);
      }
    });
  }

  it('lists the constraints the capped request carries, each lifted alone', async () => {
    const e = await get(s.url, '/route/explain', CASES.capped!, 'names');
    const c = (e.body as Explained).constraintCosts;
    expect(c.constraints.map((k) => k.name)).toEqual([
      'requireFullFill',
      'minLegNotional',
      'balances',
      'maxVenues',
      'stalenessPenalty',
      'exchanges',
    ]);
  });

  it('answers 404 with the explained no_market result, and 400 for a bad parameter', async () => {
    const none = await get(s.url, '/route/explain', { from: 'FOO', to: 'USDT', amountIn: '1' }, 'nomarket');
    expect(none.status).toBe(404);
    expect(none.body.result.unroutableReason).toBe('no_market');
    expect(none.body.proof.decision.rule).toBe('no_market');
    const bad = await call(s.url, '/route/explain?from=BTC&to=USDT&amountIn=-1');
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
  });
});
