import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBalances } from './balances';
import { paramRange } from './params';
import { parseParam } from './parse';
import type { RouteParamName } from './route-params-dto';
import { TEXT_PATTERNS, numberTextPattern } from './text-patterns';

// The documents promise that a text matching these patterns is accepted: checked here against the
// parser itself on thousands of texts drawn from each pattern (fast-check stringMatching).
const pattern = (name: RouteParamName): string => numberTextPattern(name, paramRange(name));
const accepts = (name: RouteParamName, text: string): boolean => parseParam(name, { text }).ok;
const drawn = (pattern: string) => fc.stringMatching(new RegExp(pattern));
const RUNS = { numRuns: 2000 };
/** The one rule the patterns leave to the descriptions: names that could reach a prototype are refused. */
const PROTO = /__proto__|constructor|prototype/;

describe('document text patterns are sound: what they admit, the parser accepts', () => {
  for (const name of ['amountIn', 'maxVenues', 'hopPenaltyBps', 'minLegNotional'] as const)
    it(`${name} as text`, () => {
      fc.assert(
        fc.property(drawn(pattern(name)), (t) => t.length > 256 || accepts(name, t)),
        RUNS,
      );
      // And the plain forms a client writes are admitted.
      expect(new RegExp(pattern(name)).test('1')).toBe(true);
    });

  it('assets, venue lists, asOf', () => {
    fc.assert(
      fc.property(drawn(TEXT_PATTERNS.asset), (t) => t.length > 256 || accepts('from', t)),
      RUNS,
    );
    fc.assert(
      fc.property(
        drawn(TEXT_PATTERNS.list('venue', 128)),
        (t) => t.length > 4096 || PROTO.test(t) || accepts('exchanges', t),
      ),
      RUNS,
    );
    fc.assert(
      fc.property(drawn(TEXT_PATTERNS.list('asset', 16)), (t) => t.length > 4096 || accepts('bridges', t)),
      RUNS,
    );
    fc.assert(
      fc.property(
        drawn(TEXT_PATTERNS.epochMs),
        (t) => Number(t) > Number.MAX_SAFE_INTEGER || accepts('asOf', t),
      ),
      RUNS,
    );
  });

  it('balances: entries, keys and amounts (each holding listed once is the documents’ stated rule)', () => {
    const unique = (text: string): boolean => {
      const names =
        text.trim() === '' ? [] : text.split(',').map((e) => e.split(':')[0]!.trim().toUpperCase());
      return new Set(names).size === names.length;
    };
    fc.assert(
      fc.property(
        drawn(TEXT_PATTERNS.balances),
        (t) => t.length > 4096 || !unique(t) || PROTO.test(t) || parseBalances(t).ok,
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(drawn(TEXT_PATTERNS.holding), (t) => PROTO.test(t) || parseBalances(t).ok),
      RUNS,
    );
    fc.assert(
      fc.property(
        drawn(TEXT_PATTERNS.holdingKey),
        drawn(TEXT_PATTERNS.nonNegativeSpaced),
        (key, amount) => PROTO.test(key) || parseParam('balances', { json: { [key]: amount } }).ok,
      ),
      RUNS,
    );
  });

  it('refuses what the parser refuses at the edges', () => {
    const positive = new RegExp(pattern('amountIn'));
    for (const t of ['0', '-1', '0.0', '', '1e', 'Infinity', '0x10', '1,5'])
      expect(positive.test(t)).toBe(false);
    const bps = new RegExp(pattern('hopPenaltyBps'));
    expect(['10000', '9999.5', '0', '-0'].every((t) => bps.test(t))).toBe(true);
    expect(['10000.1', '10001', '-1'].some((t) => bps.test(t))).toBe(false);
  });
});
