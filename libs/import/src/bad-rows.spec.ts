import { describe, expect, it } from 'vitest';
import { importTexts, L2, l2File } from '../test/in-memory';
import { problemText, StrictStop } from './problems';
import { runImport } from './run-import';
import { ccxtCatalog } from './ccxt-catalog';

const T = 1_700_000_000_000_000;
const SNAP = l2File([
  ['binance', 'BTCUSDT', T, T, true, 'bid', 100, 1],
  ['binance', 'BTCUSDT', T, T, true, 'ask', 101, 1],
]).trimEnd();

/** The snapshot above, then `rows` (raw CSV lines) at lines 4, 5, ... */
const withRows = (...rows: string[]): string => `${SNAP}\n${rows.join('\n')}\n`;
const row = (local: number, side: string, price: string, amount: string, extra = ''): string =>
  `binance,BTCUSDT,${local},${local},false,${side},${price},${amount}${extra}`;

describe('bad rows: reported with file and line, counted, and the import goes on', () => {
  it('names each kind of fault and keeps every good row', async () => {
    const text = withRows(
      row(T + 1000, 'bid', '99', '2'), // line 4: good
      'binance,BTCUSDT,1,2,false,bid,99', // 5: a field short
      row(T + 2000, 'middle', '99', '1'), // 6
      'binance,BTCUSDT,12x,12,false,bid,99,1', // 7
      row(T + 3000, 'bid', '-99', '1'), // 8
      row(T + 3000, 'ask', '102', '-0.5'), // 9
      row(T + 3000, 'ask', 'NaN', '1'), // 10
      row(T + 3000, 'ask', '102', 'Infinity'), // 11
      row(T + 3000, 'ask', '102', '1e999'), // 12
      row(T + 3000, 'ask', 'abc', '1'), // 13
      row(T + 3000, 'ask', '0', '1'), // 14
      row(T + 500, 'ask', '103', '1'), // 15: before line 14's time
      'binance,BTCUSDT,1,1,maybe,bid,1,1', // 16
      ',BTCUSDT,1,1,false,bid,1,1', // 17
      row(T + 4000, 'ask', '104', '3'), // 18: good
    );
    const { problems, result, records } = await importTexts([{ name: 'day.csv', text }]);
    expect(problems.map(problemText)).toEqual([
      'day.csv:5: malformed: expected 8 fields, got 7',
      'day.csv:6: malformed: side must be bid or ask',
      'day.csv:7: malformed: timestamp and local_timestamp must be microseconds since the epoch',
      "day.csv:8: negative: price '-99' must be a finite number > 0",
      "day.csv:9: negative: amount '-0.5' must be a finite number >= 0",
      "day.csv:10: non finite: price 'NaN' must be a finite number > 0",
      "day.csv:11: non finite: amount 'Infinity' must be a finite number >= 0",
      "day.csv:12: non finite: amount '1e999' must be a finite number >= 0",
      "day.csv:13: malformed: price 'abc' must be a finite number > 0",
      "day.csv:14: malformed: price '0' must be a finite number > 0",
      "day.csv:15: out of order: local timestamp 1700000000000500 is before the previous row's 1700000000001000 (a file must be in local time order)",
      'day.csv:16: malformed: is_snapshot must be true or false',
      'day.csv:17: malformed: exchange and symbol must not be empty',
    ]);
    expect(result.problems).toMatchObject({ malformed: 7, negative: 2, non_finite: 3, out_of_order: 1 });
    expect(result.problemSummary).toBe('malformed 7, negative 2, non finite 3, out of order 1');
    // The good rows: the snapshot, line 4's change and line 18's.
    expect(records.filter((r) => r.type === 'book').map((r) => r.receivedAt)).toEqual([
      1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_004,
    ]);
  });

  it('reports the change that crosses a book, once until it uncrosses; the record stays (the router refuses crossed books)', async () => {
    const text = withRows(
      row(T + 1000, 'bid', '101.5', '1'), // line 4 crosses: bid 101.5 >= ask 101
      row(T + 2000, 'bid', '101.2', '1'), // 5: still crossed
      row(T + 3000, 'bid', '101.5', '0') + '\n' + row(T + 3000, 'bid', '101.2', '0'), // 6-7 uncross
      row(T + 4000, 'ask', '99', '1'), // 8 crosses again
    );
    const { problems, records } = await importTexts([{ name: 'x.csv', text }]);
    expect(problems.map(problemText)).toEqual([
      'x.csv:4: crossed: binance BTC/USDT: best bid 101.5 >= best ask 101 after this change',
      'x.csv:8: crossed: binance BTC/USDT: best bid 100 >= best ask 99 after this change',
    ]);
    expect(records.filter((r) => r.type === 'book')).toHaveLength(5);
  });

  it('--strict stops at the first bad row', async () => {
    const text = withRows(
      row(T + 1000, 'bid', '99', '2'),
      row(T + 2000, 'bid', '-1', '2'),
      row(T + 3000, 'bid', '98', '2'),
    );
    await expect(importTexts([{ name: 'day.csv', text }], { strict: true })).rejects.toThrow(
      new StrictStop({
        kind: 'negative',
        file: 'day.csv',
        line: 5,
        detail: "price '-1' must be a finite number > 0",
      }),
    );
  });

  it('a file that breaks off (a truncated download) is reported at the line it stops, its rows so far kept', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield await Promise.resolve(Buffer.from(withRows(row(T + 1000, 'bid', '99', '2'))));
      yield Buffer.from(row(T + 2000, 'bid', '98', '1'));
      throw new Error('unexpected end of file');
    }
    const seen: string[] = [];
    const result = await runImport({
      format: 'tardis-csv',
      sources: [{ name: 'cut.csv.gz', chunks: broken() }],
      symbols: null,
      markets: null,
      skipUnmapped: false,
      strict: false,
      catalog: ccxtCatalog,
      write: () => undefined,
      report: (p) => seen.push(problemText(p)),
    });
    expect(seen).toEqual([
      'cut.csv.gz:5: malformed: the file cannot be read past this line (unexpected end of file)',
    ]);
    expect(result.records).toBe(2 + 2); // venue, market, the snapshot, line 4's change
  });

  it('normalized messages: a bad message is refused whole and named', async () => {
    const msg = (o: object): string =>
      JSON.stringify({
        type: 'book_change',
        symbol: 'BTC-USD',
        exchange: 'coinbase',
        isSnapshot: false,
        bids: [],
        asks: [],
        timestamp: '2024-03-01T00:00:01.000001Z',
        localTimestamp: '2024-03-01T00:00:01.000002Z',
        ...o,
      });
    const text = [
      msg({ isSnapshot: true, bids: [{ price: 100, amount: 1 }], asks: [{ price: 101, amount: 1 }] }),
      '{"type":"book_change",',
      msg({ bids: [{ price: 99, amount: -1 }] }),
      msg({ asks: [{ price: 102 }] }),
      msg({ localTimestamp: '2024-03-01 00:00:01' }),
      msg({ bids: [{ price: 99, amount: 12345 }] }).replace('12345', '1e999'),
      msg({ type: 'trade', price: 100 }),
      msg({ bids: [{ price: 99, amount: 2 }] }),
    ].join('\n');
    const { problems, records, result } = await importTexts([{ name: 'feed.jsonl', text }], {
      format: 'tardis-normalized',
    });
    expect(problems.map(problemText)).toEqual([
      'feed.jsonl:2: malformed: not a JSON object',
      'feed.jsonl:3: negative: book_change: bids[0] has a negative number',
      'feed.jsonl:4: malformed: book_change: asks[0] must be {price, amount} numbers',
      'feed.jsonl:5: malformed: book_change: localTimestamp must be an ISO time in UTC (...Z)',
      'feed.jsonl:6: non finite: book_change: bids[0] has a number that is not finite',
    ]);
    expect(result.otherMessages).toBe(1);
    expect(records.filter((r) => r.type === 'book').map((r) => (r.type === 'book' ? r.bids : null))).toEqual([
      [[100, 1]],
      [[99, 2]],
    ]);
  });

  it('a book is fed by one dataset: rows of a second one for it are left out, named once', async () => {
    const snap25 = `exchange,symbol,timestamp,local_timestamp,asks[0].price,asks[0].amount,bids[0].price,bids[0].amount\nbinance,BTCUSDT,${T},${T + 5},101,1,100,1\nbinance,BTCUSDT,${T},${T + 6},101,1,100,2\n`;
    const { problems, result } = await importTexts([
      { name: 'l2.csv', text: withRows(row(T + 9, 'bid', '99', '1')) },
      { name: 'top.csv', text: snap25 },
    ]);
    expect(problems.map(problemText)).toEqual([
      "top.csv:2: second source: binance BTCUSDT is already fed by incremental_book_L2; this file's book_snapshot_1 rows for it are left out",
    ]);
    expect(result.leftOut).toBe(2);
  });

  it('refuses a file it does not know before writing anything', async () => {
    await expect(
      importTexts([
        { name: 'trades.csv', text: 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount\n' },
      ]),
    ).rejects.toThrow(
      "trades.csv: not a tardis.dev incremental_book_L2 or book_snapshot_N CSV file (its header is 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount')",
    );
    await expect(
      importTexts([{ name: 'a.csv', text: `${L2}\n` }], { format: 'tardis-normalized' }),
    ).rejects.toThrow(`a.csv: not normalized JSON messages (its first line is '${L2}')`);
  });
});
