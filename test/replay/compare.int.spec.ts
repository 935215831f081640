import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord } from '@app/events';
import { createBookFeed, type LogBookFeed } from '@app/live-feed';
import { EmbeddedLog, logSink } from '@app/event-log';
import { routeRequest } from '@app/request';
import type { RouteRequest, RoutingConfig } from '@app/routing';
import { book, market, T0, venue, waitFor } from '@test/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalSolved } from './support/journal-entries';
import { runReplayCli } from './support/run-replay';

// `replay compare`, the shadow-solver gate, against this build, a git ref of it, and builds the
// test changes on purpose. Sell 2.5 ETH for USDT (fees 0, hop penalty 5 bps):
// - direct on a at 1990: 4975;
// - via BTC on c (0.05, then 40000) and via USDC on e (2000, then 1): 5000 each, both scored
//   5000 * 0.9995 = 4997.5, a tie the earlier candidate (BTC) wins.

const ROUTING: RoutingConfig = { staleBookMs: 10_000, stalenessPenaltyBps: 0, defaultTakerFeeRate: 0.001 };
const QUIET = { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) };
const NOW = T0 + 1000;
const ROOT = process.cwd();

const RECORDS: EventRecord[] = [
  ...['a', 'c', 'e'].map((v) => venue(v)),
  market('a', 'ETH/USDT', 0),
  market('c', 'ETH/BTC', 0),
  market('c', 'BTC/USDT', 0),
  market('e', 'ETH/USDC', 0),
  market('e', 'USDC/USDT', 0),
  book('a', 'ETH/USDT', [[1990, 10]], [[2010, 10]], 1, NOW),
  book('c', 'ETH/BTC', [[0.05, 10]], [[0.06, 10]], 1, NOW),
  book('c', 'BTC/USDT', [[40_000, 1]], [[40_100, 1]], 1, NOW),
  book('e', 'ETH/USDC', [[2000, 10]], [[2010, 10]], 1, NOW),
  book('e', 'USDC/USDT', [[1, 10_000]], [[1.001, 10_000]], 1, NOW),
];

const REQUESTS: RouteRequest[] = [
  routeRequest({ requestId: 'tie', from: 'ETH', to: 'USDT', amount: 2.5, bridges: ['BTC', 'USDC'] }),
  routeRequest({ requestId: 'direct', from: 'ETH', to: 'USDT', amount: 1, bridges: [] }),
];

/** A copy of the built dist/ with one edit to the compiled path choice (libs/routing choose.js). */
function changedBuild(from: string, to: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'solver-changed-'));
  cpSync(join(ROOT, 'dist'), dir, { recursive: true });
  const file = join(dir, 'libs', 'routing', 'src', 'choose.js');
  const code = readFileSync(file, 'utf8');
  expect(code).toContain(from);
  writeFileSync(file, code.replace(from, to));
  return dir;
}

describe('replay compare --solver (the shadow-solver gate)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-compare-'));
  const builds: string[] = [];
  let log: EmbeddedLog;
  let feed: LogBookFeed;
  const range = ['--from', String(T0), '--to', String(NOW), '--data-dir', dir];

  beforeAll(async () => {
    // The gate loads compiled builds: make sure this checkout's dist/ is current.
    execFileSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: ROOT });
    log = new EmbeddedLog({ dataDir: dir, fsync: 'never' });
    feed = createBookFeed({ log, logger: QUIET });
    await feed.start();
    await logSink(log).write(RECORDS);
    await waitFor(
      'the feed folded every book',
      () => feed.cache.book('e', 'USDC/USDT') !== undefined,
      10_000,
    );
    await journalSolved(log, feed, REQUESTS, NOW, ROUTING);
  }, 60_000);

  afterAll(async () => {
    await feed.stop();
    await log.close();
    for (const d of [dir, ...builds]) rmSync(d, { recursive: true, force: true });
  });

  it('reports 0 differences against the same build (its dist directory)', async () => {
    const r = await runReplayCli(['compare', ...range, '--solver', 'dist', '--strict'], { cwd: ROOT });
    expect(r.out).toMatch(
      /: 2 quotes; identical 2, different 0 \(0 above 0 bps, max \|delta\| 0\.0000 bps\), not reproducible 0; this build reproduces 2 /,
    );
    expect(r.code).toBe(0);
  });

  it('reports 0 differences against a git ref of this checkout, built into a temporary directory', async () => {
    const r = await runReplayCli(['compare', ...range, '--solver', 'HEAD', '--strict'], { cwd: ROOT });
    expect(r.err.join('\n')).toMatch(/against git HEAD \([0-9a-f]{12}, built in /);
    expect(r.out).toMatch(/identical 2, different 0/);
    expect(r.code).toBe(0);
  }, 120_000);

  it('flags a changed tie-break: the same amounts over another bridge, 0 bps', async () => {
    // Equal score and hops now go to the later candidate: USDC instead of BTC.
    const changed = changedBuild(
      'score === bestScore && hops < bestHops',
      'score === bestScore && hops <= bestHops',
    );
    builds.push(changed);
    const r = await runReplayCli(['compare', ...range, '--solver', changed], { cwd: ROOT });
    expect(r.out).toMatch(/identical 1, different 1 \(0 above 0 bps, max \|delta\| 0\.0000 bps\)/);
    expect(r.err.join('\n')).toMatch(
      /DIFFERENT quotes\/\d+@\d+ requestId "tie": this 5000, other 5000, \+0\.0000 bps/,
    );
    expect(r.code).toBe(0);
    const strict = await runReplayCli(['compare', ...range, '--solver', changed, '--strict'], { cwd: ROOT });
    expect(strict.code).toBe(1);
  });

  it('fails the gate for a solver that picks a worse path, naming the worst case in bps', async () => {
    // The lower score wins: the direct 4975 instead of 5000, (4975 / 5000 - 1) * 10000 = -50 bps.
    const changed = changedBuild('return score > bestScore ||', 'return score < bestScore ||');
    builds.push(changed);
    const r = await runReplayCli(['compare', ...range, '--solver', changed, '--max-bps', '1'], { cwd: ROOT });
    expect(r.out).toMatch(/different 1 \(1 above 1 bps, max \|delta\| 50\.0000 bps\)/);
    expect(r.out).toMatch(/ {2}-50\.0000 bps quotes\/\d+@\d+ requestId "tie": this 5000, other 4975\n/);
    expect(r.code).toBe(1);
    const loose = await runReplayCli(
      ['compare', ...range, '--solver', changed, '--max-bps', '60', '--json'],
      {
        cwd: ROOT,
      },
    );
    expect(loose.code).toBe(0);
    const rows = loose.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { requestId: string; bps: number; identical: boolean });
    expect(rows.map((x) => [x.requestId, x.identical])).toEqual([
      ['tie', false],
      ['direct', true],
    ]);
    expect(rows[0]!.bps).toBeCloseTo(-50, 9);
  });

  it('refuses a --solver that is neither a build nor a git ref (exit 2)', async () => {
    const r = await runReplayCli(['compare', ...range, '--solver', 'no-such-ref-xyz'], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--solver: git rev-parse/);
  });
});
