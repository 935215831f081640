import { book, market, venue } from '@test/support';
import { describe, expect, it } from 'vitest';
import { shiftRecord } from './replay-loop';

describe('shiftRecord (a looped pass of a recording)', () => {
  it('moves receivedAt and a book’s exchangeTimestamp later and its sequence higher', () => {
    const b = { ...book('a', 'BTC/USDT', [[1, 1]], [[2, 1]], 7, 1000), exchangeTimestamp: 990 };
    expect(shiftRecord(b, 5000, 100)).toEqual({
      ...b,
      receivedAt: 6000,
      exchangeTimestamp: 5990,
      sequence: 107,
    });
    const untimed = book('a', 'BTC/USDT', [], [], 1, 1000);
    expect(shiftRecord(untimed, 5000, 0)).toMatchObject({ exchangeTimestamp: null, sequence: 1 });
    const m = market('a', 'BTC/USDT');
    expect(shiftRecord(m, 5, 100)).toEqual({ ...m, receivedAt: m.receivedAt + 5 });
    const v = venue('a');
    expect(shiftRecord(v, 5, 100)).toEqual({ ...v, receivedAt: v.receivedAt + 5 });
    // The first pass is the recording as it is.
    expect(shiftRecord(b, 0, 0)).toBe(b);
  });
});
