import { describe, expect, it } from 'vitest';
import { parseRecord, parseRecordLine, recordKey } from '@app/events';
import { T0 } from '@test/support';

const book = {
  v: 1,
  type: 'book',
  exchangeId: 'binance',
  symbol: 'BTC/USDT',
  snapshot: true,
  bids: [
    [65000.1, 0.5],
    [65000.0, 1.2],
  ],
  asks: [[65000.2, 0.8]],
  sequence: 1,
  exchangeTimestamp: T0,
  receivedAt: 1786309548123,
};
const market = {
  v: 1,
  type: 'market',
  exchangeId: 'binance',
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  takerFeeRate: 0.001,
  receivedAt: T0,
};
const venue = {
  v: 1,
  type: 'venue',
  exchangeId: 'binance',
  certified: true,
  connected: true,
  lastError: null,
  receivedAt: T0,
};

describe('parseRecord (events.md)', () => {
  it('accepts the three example records of events.md', () => {
    for (const r of [book, market, venue]) {
      const res = parseRecordLine(JSON.stringify(r));
      expect(res.ok).toBe(true);
      if (res.ok) expect(res.record).toEqual(r);
    }
  });

  it('keys books by exchangeId|symbol and venue-topic records by exchangeId', () => {
    const b = parseRecord(book);
    const m = parseRecord(market);
    expect(b.ok && recordKey(b.record)).toBe('binance|BTC/USDT');
    expect(m.ok && recordKey(m.record)).toBe('binance');
  });

  const rejects: [string, unknown, string][] = [
    ['unknown version', { ...book, v: 2 }, "field 'v'"],
    ['unknown type', { ...book, type: 'trade' }, "field 'type'"],
    ['missing field', { ...book, sequence: undefined }, "field 'sequence' is missing"],
    ['non-finite number', { ...book, receivedAt: 'soon' }, "field 'receivedAt'"],
    ['negative amount', { ...book, snapshot: false, bids: [[1, -1]] }, "field 'bids[0]'"],
    ['zero price', { ...book, asks: [[0, 1]] }, "field 'asks[0]'"],
    [
      'unsorted snapshot',
      {
        ...book,
        bids: [
          [1, 1],
          [2, 1],
        ],
      },
      'strictly descending',
    ],
    ['fractional sequence', { ...book, sequence: 1.5 }, "field 'sequence'"],
    ['bad symbol', { ...market, symbol: 'BTCUSDT' }, "field 'symbol'"],
    ['symbol not base/quote', { ...market, base: 'ETH' }, 'must equal base/quote'],
    ['fee out of range', { ...market, takerFeeRate: 1.5 }, "field 'takerFeeRate'"],
    ['non-boolean flag', { ...venue, connected: 'yes' }, "field 'connected'"],
    ['not an object', [1, 2], 'must be a JSON object'],
  ];
  it.each(rejects)('rejects %s with an error naming the record and the field', (_name, value, message) => {
    const res = parseRecord(value);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toContain(message);
  });

  it('keeps the optional order rules of a market record, before receivedAt, null included', () => {
    // Written with receivedAt first: the parsed record puts the rules before it, in the documented order.
    const line = JSON.stringify(market).replace('}', ',"minCost":5,"minAmount":null,"amountStep":0.00001}');
    const res = parseRecordLine(line);
    const { receivedAt: _, ...head } = market;
    expect(res.ok && JSON.stringify(res.record)).toBe(
      JSON.stringify({ ...head, amountStep: 0.00001, minAmount: null, minCost: 5, receivedAt: T0 }),
    );
    // Without rules the record parses to the base record's fields only, in the same order.
    const plain = parseRecordLine(JSON.stringify(market));
    expect(plain.ok && JSON.stringify(plain.record)).toBe(JSON.stringify(market));
  });

  const badRules: [string, unknown][] = [
    ['amountStep', 0],
    ['minAmount', -1],
    ['minCost', '5'],
    ['maxAmount', 'Infinity'],
    ['amountStep', true],
  ];
  it.each(badRules)('rejects a market record whose %s is %s, naming the field', (key, value) => {
    // 'Infinity' stands for the JSON text 1e400, which JSON.parse reads as Infinity.
    const res = parseRecordLine(JSON.stringify({ ...market, [key]: value }).replace('"Infinity"', '1e400'));
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toContain(`field '${key}' must be null or a finite number > 0`);
  });

  it("keeps a book record's owner epoch last, and a record without one is the base record byte for byte", () => {
    const base = {
      v: 1,
      type: 'book',
      exchangeId: 'binance',
      symbol: 'BTC/USDT',
      snapshot: false,
      bids: [[1, 2]],
      asks: [],
      sequence: 3,
      exchangeTimestamp: null,
      receivedAt: 4,
    };
    const line = JSON.stringify({ ...base, epoch: 1786309548000 });
    const parsed = parseRecordLine(line);
    expect(parsed.ok && JSON.stringify(parsed.record)).toBe(line);
    const without = parseRecordLine(JSON.stringify(base));
    expect(without.ok && JSON.stringify(without.record)).toBe(JSON.stringify(base));
    for (const epoch of [-1, 1.5, '7', null]) {
      const bad = parseRecord({ ...base, epoch });
      expect(bad.ok ? null : [bad.error.field, bad.error.message]).toEqual([
        'epoch',
        expect.stringContaining("field 'epoch' must be a non-negative integer"),
      ]);
    }
  });

  it('names the record in the error', () => {
    const res = parseRecord({ ...book, sequence: -3 });
    expect(!res.ok && res.error.message).toMatch(
      /^rejected record book binance BTC\/USDT #-3: field 'sequence'/,
    );
  });

  it('reports malformed JSON lines without throwing', () => {
    const res = parseRecordLine('{"v":1,');
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.code).toBe('not_json');
  });
});
