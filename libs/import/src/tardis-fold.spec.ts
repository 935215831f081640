import { BookCache } from '@app/books';
import type { BookRecord, EventRecord } from '@app/events';
import { describe, expect, it } from 'vitest';
import { importTexts, l2File } from '../test/in-memory';

const T = 1_700_000_000_000_000; // a microsecond instant
const b = (...rows: (string | number | boolean)[][]): string => l2File(rows);
const books = (records: EventRecord[]): BookRecord[] =>
  records.filter((r): r is BookRecord => r.type === 'book');

/** The book as the project's own fold leaves it after all `records`. */
function folded(records: EventRecord[], venue = 'binance', symbol = 'BTC/USDT') {
  const cache = new BookCache();
  for (const r of records) cache.apply(r);
  const book = cache.book(venue, symbol)!;
  return { bids: book.bids.toLevels(), asks: book.asks.toLevels(), inSync: book.inSync };
}

describe('incremental_book_L2 as tardis.dev defines it', () => {
  it('one record per message (rows of one local timestamp), stamped in ms from the microseconds', async () => {
    const file = b(
      ['binance', 'BTCUSDT', T - 900, T, true, 'bid', 100, 1],
      ['binance', 'BTCUSDT', T - 900, T, true, 'ask', 101, 2],
      ['binance', 'BTCUSDT', T - 900, T, true, 'bid', 99.5, 3],
      ['binance', 'BTCUSDT', T + 1999, T + 2999, false, 'bid', 100, 0],
      ['binance', 'BTCUSDT', T + 1999, T + 2999, false, 'ask', 100.5, 4],
      ['binance', 'BTCUSDT', T + 5000, T + 5000, false, 'bid', 99, 7],
    );
    const { records, result } = await importTexts([{ name: 'day.csv', text: file }]);
    expect(result.ok).toBe(true);
    expect(records.slice(0, 2).map((r) => r.type)).toEqual(['venue', 'market']);
    expect(books(records)).toEqual([
      {
        v: 1,
        type: 'book',
        exchangeId: 'binance',
        symbol: 'BTC/USDT',
        snapshot: true,
        bids: [
          [100, 1],
          [99.5, 3],
        ],
        asks: [[101, 2]],
        sequence: 1,
        exchangeTimestamp: 1_699_999_999_999, // 900 µs earlier, truncated to the ms
        receivedAt: 1_700_000_000_000,
      },
      {
        v: 1,
        type: 'book',
        exchangeId: 'binance',
        symbol: 'BTC/USDT',
        snapshot: false,
        bids: [[100, 0]],
        asks: [[100.5, 4]],
        sequence: 2,
        exchangeTimestamp: 1_700_000_000_001,
        receivedAt: 1_700_000_000_002,
      },
      {
        v: 1,
        type: 'book',
        exchangeId: 'binance',
        symbol: 'BTC/USDT',
        snapshot: false,
        bids: [[99, 7]],
        asks: [],
        sequence: 3,
        // timestamp == local_timestamp: the exchange gave no time of its own.
        exchangeTimestamp: null,
        receivedAt: 1_700_000_000_005,
      },
    ]);
    expect(folded(records)).toEqual({
      bids: [
        [99.5, 3],
        [99, 7],
      ],
      asks: [
        [100.5, 4],
        [101, 2],
      ],
      inSync: true,
    });
  });

  it("a run of snapshot rows replaces the book: after a reconnect, and at the start of each day's file", async () => {
    const day1 = b(
      ['binance', 'BTCUSDT', T, T, true, 'bid', 100, 1],
      ['binance', 'BTCUSDT', T, T, true, 'ask', 102, 1],
      ['binance', 'BTCUSDT', T + 1000, T + 1000, false, 'bid', 98, 5],
      // A reconnect: a new snapshot, without the 98 bid.
      ['binance', 'BTCUSDT', T + 2000, T + 2000, true, 'bid', 101, 2],
      ['binance', 'BTCUSDT', T + 2000, T + 2000, true, 'ask', 103, 2],
    );
    const day2 = b(
      ['binance', 'BTCUSDT', T + 9000, T + 9000, true, 'bid', 97, 9],
      ['binance', 'BTCUSDT', T + 9000, T + 9000, true, 'ask', 104, 9],
    );
    const { records } = await importTexts([
      { name: 'day1.csv', text: day1 },
      { name: 'day2.csv', text: day2 },
    ]);
    expect(books(records).map((r) => [r.snapshot, r.sequence])).toEqual([
      [true, 1],
      [false, 2],
      [true, 3],
      [true, 4],
    ]);
    const atReconnect = records.filter((r) => r.receivedAt <= (T + 2000) / 1000);
    expect(folded(atReconnect)).toEqual({ bids: [[101, 2]], asks: [[103, 2]], inSync: true });
    expect(folded(records)).toEqual({ bids: [[97, 9]], asks: [[104, 9]], inSync: true });
  });

  it('a snapshot spread over several local timestamps is one snapshot, then changes adding to it', async () => {
    const { records } = await importTexts([
      {
        name: 'a.csv',
        text: b(
          ['bitstamp', 'BTCUSD', T, T, true, 'bid', 100, 1],
          ['bitstamp', 'BTCUSD', T + 1000, T + 1000, true, 'bid', 99, 1],
          ['bitstamp', 'BTCUSD', T + 2000, T + 2000, true, 'ask', 101, 1],
          ['bitstamp', 'BTCUSD', T + 3000, T + 3000, false, 'ask', 102, 1],
        ),
      },
    ]);
    expect(books(records).map((r) => r.snapshot)).toEqual([true, false, false, false]);
    expect(folded(records, 'bitstamp', 'BTC/USD')).toEqual({
      bids: [
        [100, 1],
        [99, 1],
      ],
      asks: [
        [101, 1],
        [102, 1],
      ],
      inSync: true,
    });
  });

  it("leaves out changes before a book's first snapshot, and counts them", async () => {
    const { records, result } = await importTexts([
      {
        name: 'a.csv',
        text: b(
          ['binance', 'BTCUSDT', T, T, false, 'bid', 100, 1],
          ['binance', 'BTCUSDT', T + 1, T + 1, true, 'bid', 99, 1],
          ['binance', 'BTCUSDT', T + 1, T + 1, true, 'ask', 101, 1],
        ),
      },
    ]);
    expect(result.beforeSnapshot).toBe(1);
    expect(books(records)).toHaveLength(1);
    expect(folded(records).bids).toEqual([[99, 1]]);
  });

  it('merges files and books by local time (ties: the earlier file), sequences counted per book', async () => {
    const one = b(
      ['binance', 'BTCUSDT', T, T, true, 'bid', 100, 1],
      ['binance', 'BTCUSDT', T + 5000, T + 5000, false, 'bid', 100, 2],
    );
    const two = b(
      ['coinbase', 'BTC-USD', T + 5000, T + 5000, true, 'ask', 101, 1],
      ['binance', 'ETHUSDT', T + 6000, T + 6000, true, 'ask', 5, 1],
      ['coinbase', 'BTC-USD', T + 7000, T + 7000, false, 'ask', 101, 3],
    );
    const { records } = await importTexts([
      { name: 'one.csv', text: one },
      { name: 'two.csv', text: two },
    ]);
    expect(
      records.map(
        (r) =>
          `${r.type} ${r.exchangeId} ${'symbol' in r ? r.symbol : ''} ${'sequence' in r ? r.sequence : ''}`,
      ),
    ).toEqual([
      'venue binance  ',
      'market binance BTC/USDT ',
      'book binance BTC/USDT 1',
      // At T+5000 both files have a row: one.csv's message is opened (and written) first.
      'venue coinbase  ',
      'market coinbase BTC/USD ',
      'book binance BTC/USDT 2',
      'book coinbase BTC/USD 1',
      'market binance ETH/USDT ',
      'book binance ETH/USDT 1',
      'book coinbase BTC/USD 2',
    ]);
    const times = records.map((r) => r.receivedAt);
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('writes the same bytes whatever the chunks the files arrive in', async () => {
    const rows: (string | number | boolean)[][] = [];
    for (let i = 0; i < 200; i++)
      rows.push([
        'binance',
        'BTCUSDT',
        T + i * 10,
        T + Math.floor(i / 3) * 100,
        i < 6,
        i % 2 ? 'bid' : 'ask',
        100 + (i % 2 ? -1 : 1) * (1 + (i % 7)),
        i % 5,
      ]);
    const text = b(...rows);
    const whole = await importTexts([{ name: 'a.csv', text }], { chunk: 1 << 20 });
    const small = await importTexts([{ name: 'a.csv', text }], { chunk: 7 });
    expect(small.text).toBe(whole.text);
    expect(whole.records.length).toBeGreaterThan(60);
  });
});

describe('symbols that cannot be mapped', () => {
  const rows = b(
    ['binance', 'BTCUSDT', T, T, true, 'bid', 100, 1],
    ['binance-futures', 'BTCUSDT', T, T, true, 'bid', 100, 1],
    ['binance', 'ADAEUR', T + 1, T + 1, true, 'bid', 1, 1],
    ['binance', 'BTCUSDT', T + 2, T + 2, false, 'bid', 100, 2],
  );

  it('fail the import, every one named, and nothing is folded after the first', async () => {
    const { result, records } = await importTexts([{ name: 'a.csv', text: rows }]);
    expect(result.ok).toBe(false);
    expect(result.unmapped.map((u) => `${u.exchange} ${u.symbol}`)).toEqual([
      'binance-futures BTCUSDT',
      'binance ADAEUR',
    ]);
    expect(records.filter((r) => r.type === 'book').length).toBeLessThanOrEqual(1);
  });

  it('with --skip-unmapped, their rows are left out and counted', async () => {
    const { result, records } = await importTexts([{ name: 'a.csv', text: rows }], { skipUnmapped: true });
    expect(result.ok).toBe(true);
    expect(result.leftOut).toBe(2);
    expect(
      records.filter((r) => r.type === 'book').map((r) => `${r.exchangeId} ${'symbol' in r ? r.symbol : ''}`),
    ).toEqual(['binance BTC/USDT', 'binance BTC/USDT']);
  });

  it('two native symbols of one book stop it too, whatever --skip-unmapped says', async () => {
    const { result } = await importTexts(
      [
        {
          name: 'a.csv',
          text: b(
            ['bitfinex', 'BTCUSD', T, T, true, 'bid', 100, 1],
            ['bitfinex', 'tBTCUSD', T, T, true, 'bid', 100, 1],
          ),
        },
      ],
      { skipUnmapped: true },
    );
    expect(result.ok).toBe(false);
    expect(result.collisions).toEqual(['bitfinex BTCUSD and bitfinex tBTCUSD both map to bitfinex BTC/USD']);
  });
});
