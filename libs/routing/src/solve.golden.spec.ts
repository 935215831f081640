import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SERVER_DEFAULTS } from '@app/config';
import { SOLVER_VERSION, solve } from '@app/routing';
import { NOW } from '../test/fixtures';
import { scenarioInput } from '../test/scenarios';

// The service's routing settings (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;

// The result bytes of 400 generated requests (every request field, stale and out-of-sync books,
// trims, refusals), hashed. A change to any result byte fails here: it needs a new SOLVER_VERSION
// (replays compare it) and the new hash recorded below, in the same commit.
const GOLDEN: Readonly<Record<string, string>> = {
  '1.1.0': '6d04b3346ff030bb7df40d62af49768da1a711263f98c3084c3a61a5cb9b22a2',
  // 1.2.0 adds venue order rules; these books carry none, so the bytes are unchanged.
  '1.2.0': '6d04b3346ff030bb7df40d62af49768da1a711263f98c3084c3a61a5cb9b22a2',
  // 1.2.1 keeps a leg cut at a maximum on a market without a step from passing it by float
  // rounding; these books carry no rules, so the bytes are unchanged.
  '1.2.1': '6d04b3346ff030bb7df40d62af49768da1a711263f98c3084c3a61a5cb9b22a2',
  // 1.2.2 does not take a trim whose hop 1 would spend more than the request, which only venue
  // rules can cause; these books carry none, so the bytes are unchanged.
  '1.2.2': '6d04b3346ff030bb7df40d62af49768da1a711263f98c3084c3a61a5cb9b22a2',
  // 1.2.3 shows balanceLimited on a stepped leg the walk reaches with less than a step left, where
  // its funds stop it; only venue rules make such a leg, and these books carry none.
  '1.2.3': '6d04b3346ff030bb7df40d62af49768da1a711263f98c3084c3a61a5cb9b22a2',
};

describe('result bytes are pinned per SOLVER_VERSION', () => {
  it('400 generated requests hash to the recorded value', () => {
    const hash = createHash('sha256');
    const outcomes = new Map<string, number>();
    for (let seed = 1; seed <= 400; seed++) {
      const { request, books } = scenarioInput(seed, NOW);
      const r = solve({ request, books, now: NOW, config: DEFAULT_ROUTING_CONFIG });
      hash.update(JSON.stringify(r));
      hash.update('\n');
      const kind =
        r.unroutableReason ??
        (r.hops.length === 2 ? 'bridged' : 'direct') + (r.fullyFillable ? '' : '_partial');
      outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
    }
    // The set covers what it claims to: routes of both shapes, partials and refusals.
    for (const kind of ['direct', 'bridged', 'direct_partial', 'bridged_partial', 'no_market'])
      expect(outcomes.get(kind), kind).toBeGreaterThan(0);
    for (const kind of ['insufficient_balance', 'insufficient_depth', 'all_books_stale'])
      expect(outcomes.get(kind), kind).toBeGreaterThan(0);
    expect(hash.digest('hex')).toBe(GOLDEN[SOLVER_VERSION]);
  });
});
