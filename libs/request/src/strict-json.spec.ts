import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strict-json';

const roomy = { depth: 64, keys: 100_000 };

describe('parseStrictJson', () => {
  it('gives exactly what JSON.parse gives for any JSON document without repeated or prototype keys', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (text) => {
        const expected: unknown = JSON.parse(text);
        if (text.includes('"__proto__"') || text.includes('"constructor"') || text.includes('"prototype"'))
          return;
        expect(parseStrictJson(text, roomy)).toEqual({ ok: true, value: expected });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses whatever JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (!valid) expect(parseStrictJson(text, roomy).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
    for (const bad of [
      '',
      '{',
      '[1,]',
      '{"a":1,}',
      '01',
      '1.',
      '.5',
      '"\u0001"',
      'tru',
      '{"a" 1}',
      '"\\x"',
      '1 2',
    ])
      expect(parseStrictJson(bad, roomy).ok).toBe(false);
  });

  it('refuses a key repeated in one object, where JSON.parse silently keeps the last value', () => {
    expect(parseStrictJson('{"amountIn":1,"amountIn":2}', roomy)).toEqual({
      ok: false,
      error: 'body is not valid JSON: key "amountIn" repeated in one object at position 14',
    });
    expect(parseStrictJson('{"a":{"b":1},"c":{"b":2}}', roomy).ok).toBe(true);
  });

  it('refuses prototype keys at any depth', () => {
    for (const key of ['__proto__', 'constructor', 'prototype'])
      expect(parseStrictJson(`{"balances":{"${key}":1}}`, roomy)).toMatchObject({
        ok: false,
        error: expect.stringContaining(`key "${key}" is not allowed`) as unknown,
      });
  });

  it('caps nesting depth and key count', () => {
    expect(parseStrictJson('[[[[1]]]]', { depth: 4, keys: 10 }).ok).toBe(true);
    expect(parseStrictJson('[[[[[1]]]]]', { depth: 4, keys: 10 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('nesting deeper than 4 levels') as unknown,
    });
    const many = `{${Array.from({ length: 11 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(parseStrictJson(many, { depth: 4, keys: 10 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('more than 10 keys') as unknown,
    });
    // A 95 MB "[[[[..." is refused at the fifth bracket, not after reading it.
    expect(parseStrictJson('['.repeat(1_000_000), { depth: 4, keys: 10 }).ok).toBe(false);
  });
});
