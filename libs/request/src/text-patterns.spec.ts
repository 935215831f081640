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

describe('the amount pattern: at least SMALLEST_AMOUNT (1e-12), exactly (issue 22)', () => {
  it('admits what is at least 1e-12 and refuses what is below it, in every written form it documents (one-digit exponents)', () => {
    const amount = new RegExp(pattern('amountIn'));
    for (const ok of [
      '1',
      '0.000000000001',
      '0.001e-9',
      '0.01e-9',
      '1e-9',
      '.000000000001',
      '0.000000000000000000001e9',
      '+2.5',
      '1000',
    ])
      expect([ok, amount.test(ok)]).toEqual([ok, true]);
    for (const below of [
      '5e-324',
      '0.0000000000009',
      '0.00000000000001e1',
      '0.0001e-9',
      '0.00000000000000000000001e9',
      '0',
      '-1',
    ])
      expect([below, amount.test(below)]).toEqual([below, false]);
    // And the parser draws the same line.
    expect(accepts('amountIn', '1e-12')).toBe(true);
    expect(parseParam('amountIn', { text: '5e-324' })).toEqual({
      ok: false,
      error: "amountIn must be a number >= 1e-12, got '5e-324'",
    });
  });

  it('whatever it admits, the parser takes at least 1e-12; whatever the parser takes at or above, in its plain forms, it admits', () => {
    fc.assert(
      fc.property(drawn(pattern('amountOut')), (t) => t.length > 256 || Number(t) >= 1e-12),
      RUNS,
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-12, max: 1e12, noNaN: true }), (x) =>
        new RegExp(pattern('amountOut')).test(x.toFixed(20).replace(/0+$/, '').replace(/\.$/, '')),
      ),
      RUNS,
    );
  });
});

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
