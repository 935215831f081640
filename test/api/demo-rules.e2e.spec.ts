import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MarketRecord } from '@app/events';
import type { ConstraintCosts, RouteResult, SolveProof } from '@app/routing';
import { isWholeMultiple, sumsExactly, tempDir } from '@test/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { startService, type ServiceProcess } from './support/service-process';

// The demo data's SOL and XRP markets carry their venues' order rules (docs/replay.md "The demo
// data is synthetic"). Through the demo server, the real API playing replay-data/, direct and
// bridged SOL and XRP quotes return legs that are valid orders on their venues: whole steps, at
// or above the minimum amount and cost, at or below the maximum. docs/replay.md shows one of
// these answers; it is checked here against what the server serves.
const ROOT = resolve(__dirname, '../..');
const RECORDING = join(ROOT, 'replay-data');
const DOCUMENTED = 'from=SOL&to=XRP&amountIn=150&strategy=split_optimal&bridges=USDT';
const QUERIES = [
  'from=USDT&to=SOL&amountIn=50000&strategy=split_optimal',
  'from=XRP&to=USDT&amountIn=100000&strategy=split_optimal',
  'from=USDT&to=XRP&amountOut=20000&strategy=split_capped',
  'from=SOL&to=USDC&amountIn=300&strategy=best_single',
  DOCUMENTED,
  'from=SOL&to=XRP&amountIn=1500&strategy=split_optimal&bridges=USDT',
  'from=XRP&to=SOL&amountIn=100000&strategy=split_optimal&bridges=USDT',
  'from=SOL&to=XRP&amountIn=40&strategy=split_optimal&bridges=BTC',
  'from=XRP&to=SOL&amountIn=5000&strategy=best_single&bridges=USDC',
];

/** The recording's market records, read from the file itself (not through the API). */
function recordedMarkets(): Map<string, MarketRecord> {
  const text = readFileSync(join(RECORDING, 'synthetic-60-venues.jsonl'), 'utf8');
  const out = new Map<string, MarketRecord>();
  for (const line of text.split('\n')) {
    if (!line.includes('"type":"market"')) continue;
    const m = JSON.parse(line) as MarketRecord;
    out.set(`${m.exchangeId}|${m.symbol}`, m);
  }
  return out;
}

/** The legs docs/replay.md shows for DOCUMENTED: [hop, pair, side, venue, amount] per table row. */
function documentedLegs(): string[][] {
  const doc = readFileSync(join(ROOT, 'docs/replay.md'), 'utf8');
  const at = doc.indexOf('### SOL and XRP on executable legs');
  expect(at, 'the section of docs/replay.md').toBeGreaterThan(0);
  const section = doc.slice(at, doc.indexOf('\n#', at + 1));
  expect(section).toContain(`/route?${DOCUMENTED}`);
  return section
    .split('\n')
    .filter((l) => /^\| \d: /.test(l))
    .map((l) => l.split('|').map((c) => c.trim()))
    .map(([, hop, venue, amount]) => [...hop!.split(/[: ]+/), venue!, amount!.replace(/,/g, '')]);
}

describe('the demo data: SOL and XRP quotes on executable legs', () => {
  const cwd = tempDir('demo-rules');
  const markets = recordedMarkets();
  const answers = new Map<string, RouteResult>();
  let svc: ServiceProcess;

  beforeAll(async () => {
    svc = await startService(
      ['--replay', RECORDING, '--speed', 'max', '--port', '0', '--host', '127.0.0.1'],
      { DATA_DIR: join(cwd.path, 'data'), KAFKA_BROKERS: undefined, RATE_LIMIT_RPS: '1000' },
      cwd.path,
    );
    await svc.waitForLine('the whole recording folded', (l) => l.message === 'replay finished', 60_000);
    for (const q of QUERIES) {
      const r = await call(svc.url, `/route?${q}&includeQuotes=false`);
      expect(r.status, q).toBe(200);
      answers.set(q, r.body as RouteResult);
    }
  }, 90_000);

  afterAll(async () => {
    await svc?.stop();
    cwd.remove();
  });

  it('every leg of every hop, direct and bridged, is a valid order on its venue', () => {
    const seen = { sol: 0, xrp: 0, bridged: 0, coarse: 0 };
    for (const [q, result] of answers) {
      expect(result.unroutableReason, q).toBeNull();
      expect(result.fullyFillable, q).toBe(true);
      if (result.hops.length === 2) seen.bridged++;
      for (const hop of result.hops) {
        const baseSide = hop.side === 'buy' ? hop.amountOut : hop.amountIn;
        expect(
          sumsExactly(
            hop.legs.map((l) => l.amount),
            baseSide,
          ),
          `${q} ${hop.pair}`,
        ).toBe(true);
        for (const leg of hop.legs) {
          const what = `${q}: ${leg.exchangeId} ${hop.pair} ${leg.amount}`;
          const m = markets.get(`${leg.exchangeId}|${hop.pair}`);
          expect(m, what).toBeDefined();
          if (m!.amountStep != null) expect(isWholeMultiple(leg.amount, m!.amountStep), what).toBe(true);
          expect(leg.amount, what).toBeGreaterThanOrEqual(m!.minAmount ?? 0);
          expect(leg.amount * leg.averagePrice, what).toBeGreaterThanOrEqual((m!.minCost ?? 0) * (1 - 1e-12));
          expect(leg.amount, what).toBeLessThanOrEqual(m!.maxAmount ?? Infinity);
          if (hop.base === 'SOL') seen.sol++;
          if (hop.base === 'XRP') seen.xrp++;
          // Whole XRP and hundredths of a SOL: the lot-filter and small venues' steps.
          if ((m!.amountStep ?? 0) >= 0.01) seen.coarse++;
        }
      }
    }
    expect(seen.sol).toBeGreaterThanOrEqual(8);
    expect(seen.xrp).toBeGreaterThanOrEqual(8);
    expect(seen.bridged).toBe(5);
    expect(seen.coarse).toBeGreaterThanOrEqual(5);
  });

  it('the rules shape the bridged SOL -> XRP route, as its proof and constraint costs show', async () => {
    const r = await call(svc.url, `/route/explain?${DOCUMENTED}`);
    expect(r.status).toBe(200);
    const { result, proof, constraintCosts } = r.body as {
      result: RouteResult;
      proof: SolveProof;
      constraintCosts: ConstraintCosts;
    };
    expect(result.hops.map((h) => h.pair)).toEqual(['SOL/USDT', 'XRP/USDT']);
    const hops = proof.candidates[proof.decision.winner!]!.hops;
    expect(hops.flatMap((h) => h.legs.map((l) => l.shapedBy))).toContain('step');
    expect(hops.flatMap((h) => h.venues.map((v) => v.droppedBecause))).toContain('min_amount');
    // As if no market carried rules: the same books give a leg a venue would refuse, off its
    // step by more than float noise (8,415.22 XRP where only whole XRP are taken).
    const free = constraintCosts.constraints.find((c) => c.name === 'venueRules')!;
    expect(free).toBeDefined();
    const offStep = free.result.hops.flatMap((h) =>
      h.legs.filter((l) => {
        const step = markets.get(`${l.exchangeId}|${h.pair}`)!.amountStep;
        return step != null && Math.abs(l.amount / step - Math.round(l.amount / step)) > 1e-6;
      }),
    );
    expect(offStep.length).toBeGreaterThan(0);
    expect(free.value).toBeGreaterThan(constraintCosts.route.value);
  });

  it('docs/replay.md shows the bridged SOL -> XRP answer as the demo serves it', () => {
    const served = answers
      .get(DOCUMENTED)!
      .hops.flatMap((h, i) =>
        h.legs.map((l) => [String(i + 1), h.pair, h.side, l.exchangeId, String(l.amount)]),
      );
    expect(documentedLegs()).toEqual(served);
  });
});
