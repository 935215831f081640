import { describe, expect, it } from 'vitest';
import { receivedAtOf } from './time-index';

describe('receivedAtOf: the time index reads receivedAt without parsing when it safely can', () => {
  const book = {
    v: 1,
    type: 'book',
    exchangeId: 'a',
    symbol: 'BTC/USDT',
    snapshot: true,
    bids: [[1, 1]],
    asks: [[2, 1]],
    sequence: 1,
    exchangeTimestamp: 5,
    receivedAt: 1_786_000_000_123,
  };

  it('reads the key of a record as written, and with spaces around the colon', () => {
    expect(receivedAtOf(JSON.stringify(book))).toBe(1_786_000_000_123);
    expect(receivedAtOf(JSON.stringify(book, null, 1))).toBe(1_786_000_000_123);
  });

  it('is not fooled by the key spelled inside a string value: that quote is escaped', () => {
    const venue = {
      v: 1,
      type: 'venue',
      exchangeId: 'a',
      certified: false,
      connected: false,
      lastError: 'upstream said {"receivedAt":1}',
      receivedAt: 1_786_000_000_999,
    };
    expect(receivedAtOf(JSON.stringify(venue))).toBe(1_786_000_000_999);
  });

  it('falls back to parsing for a number not written as plain digits, and gives null for a bad entry', () => {
    const text = JSON.stringify(book).replace('1786000000123', '1.786000000123e12');
    // The digits before the point are not the time: the strict parser decides (value or refusal).
    expect([null, 1_786_000_000_123]).toContain(receivedAtOf(text));
    expect(receivedAtOf('not json')).toBeNull();
  });
});
