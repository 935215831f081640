import { describe, expect, it } from 'vitest';
import { utf8Bytes } from './utf8-bytes';

describe('utf8Bytes: the bytes of an answer as sent', () => {
  it.each([
    ['ASCII JSON', '{"exchangeId":"sim00","amount":0.38383}'],
    ['Latin-1 letters (one UTF-16 unit, two bytes)', '{"warning":"café crème"}'],
    ['a character outside the BMP (a surrogate pair)', '{"note":"\u{1F4B8} fee"}'],
    ['a lone surrogate', '{"bad":"\uD800x"}'],
    ['the empty text', ''],
  ])('%s: the same bytes as the UTF-8 encoder', (_, text) => {
    expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('a non-ASCII text is never copied byte by byte', () => {
    // A Latin-1 copy of "é" would be the single byte 0xE9, which is not UTF-8.
    expect([...utf8Bytes('é')]).toEqual([0xc3, 0xa9]);
  });
});
