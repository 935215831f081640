import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BookCache, type BookSideView, type BookView } from '@app/books';
import { FoldAt, importCli, readRecording } from './support/cli';
import { RowFold, type L2Row } from './support/row-fold';
import {
  COMPUTED,
  l2Csv,
  micros,
  readMessages,
  snapshotCsv,
  SYMBOLS,
  TWO_VENUES,
  type Message,
} from './support/tardis-data';

const tmp = mkdtempSync(join(tmpdir(), 'tardis-import-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const symbolsFile = join(tmp, 'symbols.json');
writeFileSync(symbolsFile, JSON.stringify(SYMBOLS));
const messages = readMessages(TWO_VENUES);
const BOOKS = [
  ['bitmex', 'XBTUSD', 'bitmex', 'BTC/USD'],
  ['deribit', 'BTC-PERPETUAL', 'deribit', 'BTC/USD'],
] as const;

/** Instants every `step` ms over the minute, plus the ms of every 37th message (inside busy ms). */
function instants(msgs: readonly Message[], step: number): number[] {
  const first = Math.floor(micros(msgs[0]!.localTimestamp) / 1000);
  const last = Math.floor(micros(msgs[msgs.length - 1]!.localTimestamp) / 1000);
  const out = new Set<number>();
  for (let t = Math.floor(first / 1000) * 1000; t <= last + step; t += step) out.add(t);
  msgs.forEach((m, i) => i % 37 === 0 && out.add(Math.floor(micros(m.localTimestamp) / 1000)));
  return [...out].sort((a, b) => a - b);
}

/** An independent fold, moved forward to ms `t` (all input with a local time in or before it). */
type Independent = (t: number) => RowFold;

/** The fold of the normalized messages (a book_change snapshot resets, a change sets levels). */
function messagesFold(msgs: readonly Message[]): Independent {
  const fold = new RowFold();
  let next = 0;
  return (t) => {
    for (; next < msgs.length && Math.floor(micros(msgs[next]!.localTimestamp) / 1000) <= t; next++) {
      const m = msgs[next]!;
      if (m.type === 'book_change')
        fold.message(`${m.exchange} ${m.symbol}`, m.isSnapshot === true, m.bids, m.asks);
    }
    return fold;
  };
}

/** The fold of incremental_book_L2 CSV texts, row by row, merged by local time (then file). */
function csvFold(texts: readonly string[]): Independent {
  const rows: L2Row[] = texts.flatMap((text, file) =>
    text
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [exchange, symbol, , local, snapshot, side, price, amount] = line.split(',');
        return {
          key: `${exchange!} ${symbol!}`,
          file,
          local: Number(local),
          snapshot: snapshot === 'true',
          bid: side === 'bid',
          price: Number(price),
          amount: Number(amount),
        };
      }),
  );
  rows.sort((a, b) => a.local - b.local || a.file - b.file);
  const fold = new RowFold();
  let next = 0;
  return (t) => {
    for (; next < rows.length && Math.floor(rows[next]!.local / 1000) <= t; next++) fold.apply(rows[next]!);
    return fold;
  };
}

/**
 * An independent fold of the input at each instant against the project's fold of the output: the
 * whole book every second, the top 25 levels a side at the other instants.
 */
function expectSameBooks(
  records: ReturnType<typeof readRecording>,
  times: readonly number[],
  at: Independent,
): number {
  const mine = new FoldAt(records);
  let compared = 0;
  for (const t of times) {
    const fold = at(t);
    const depth = t % 1000 === 0 ? Infinity : 25;
    for (const [exchange, symbol, venue, unified] of BOOKS) {
      const want = fold.levels(`${exchange} ${symbol}`, depth);
      const got = mine.at(t, venue, unified, depth);
      // Compared as text first: a deep comparison of 3,000 levels a side is slow.
      if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `${venue} at ${t}`).toEqual(want);
      if (want !== undefined) compared++;
    }
  }
  return compared;
}

describe('replay import on real tardis.dev data (the built CLI)', () => {
  it('normalized messages of two venues: unmapped ones stop it naming each; mapped, its books equal an independent fold', () => {
    const refused = importCli(['--format', 'tardis-normalized', '--out', 'norm', TWO_VENUES], tmp);
    expect(refused.code).toBe(2);
    expect(refused.err).toEqual([
      'import stopped: 2 exchange/symbol pair(s) cannot be mapped (map them in a --symbols file, or pass --skip-unmapped to leave their rows out); nothing written:',
      '  deribit BTC-PERPETUAL: BTC-PERPETUAL is not a spot pair of this venue\'s form (map it under "symbols")',
      '  exchange bitmex has no class in the pinned ccxt (name a venue id under "exchanges" in --symbols): XBTUSD',
    ]);
    const r = importCli(
      ['--format', 'tardis-normalized', '--out', 'norm', '--symbols', symbolsFile, TWO_VENUES],
      tmp,
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err[0]).toBe(
      'markets: no --markets file: the 2 markets carry takerFeeRate null (the router applies its default taker fee) and no order rules',
    );
    expect(r.err.at(-1)).toBe('bad rows: none; left out: 765 messages of other types');
    const records = readRecording(join(tmp, 'norm', 'tardis.jsonl'));
    // One record per book_change message, and a venue and a market record per venue.
    expect(records).toHaveLength(7489 + 4);
    expect(expectSameBooks(records, instants(messages, 100), messagesFold(messages))).toBeGreaterThan(1000);
  });

  it('the same changes as incremental_book_L2 CSV files (gzip), merged by local time: the same books at every instant', () => {
    const texts = BOOKS.map(([exchange]) => l2Csv(messages, exchange));
    const files = BOOKS.map(([exchange, symbol], i) => {
      const file = join(tmp, `${exchange}_incremental_book_L2_2019-04-01_${symbol}.csv.gz`);
      writeFileSync(file, gzipSync(texts[i]!));
      return file;
    });
    const r = importCli(['--format', 'tardis-csv', '--out', 'csv', '--symbols', symbolsFile, ...files], tmp);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err.at(-1)).toBe('bad rows: none');
    const csv = readRecording(join(tmp, 'csv', 'tardis.jsonl'));
    expect(expectSameBooks(csv, instants(messages, 50), csvFold(texts))).toBeGreaterThan(2000);
    // A message's rows are one record: as many records as the normalized import wrote.
    expect(csv).toHaveLength(7489 + 4);
  });

  it("the imported book's top N at each book_snapshot_N row's local time equals the row (N = 3, 5, 10; tardis-node computed them)", () => {
    const computed = readMessages(COMPUTED);
    // The same bitmex changes as the two-venue file's (fixtures/README.md).
    const bitmexChanges = (ms: readonly Message[]): string[] =>
      ms.filter((m) => m.type === 'book_change' && m.exchange === 'bitmex').map((m) => JSON.stringify(m));
    expect(bitmexChanges(computed)).toEqual(bitmexChanges(messages));
    const l2 = join(tmp, 'bitmex_l2.csv');
    writeFileSync(l2, l2Csv(computed, 'bitmex'));
    const r = importCli(['--format', 'tardis-csv', '--out', 'top', '--symbols', symbolsFile, l2], tmp);
    expect(r.code, r.err.join('\n')).toBe(0);
    const records = readRecording(join(tmp, 'top', 'tardis.jsonl'));
    const books = records.filter((x) => x.type === 'book');
    // Each snapshot stream tardis-node computed, as a book_snapshot_N CSV file, row by row.
    const streams = [
      ['book_snapshot_5_0ms', 5, 1732],
      ['book_snapshot_10_1000ms', 10, 49],
      ['book_snapshot_3_100ms', 3, 304],
    ] as const;
    for (const [name, depth, count] of streams) {
      const file = join(tmp, `bitmex_${name}.csv`);
      writeFileSync(file, snapshotCsv(computed, name, depth));
      const rows = snapshotRows(file);
      expect(rows, name).toHaveLength(count);
      const byInstant = new FoldAt(records);
      const byMessage = new BookCache();
      const top = (b: BookView): number[][][] => [b.bids, b.asks].map((s) => toLevels(s, depth));
      const changeTimes = computed
        .filter((m) => m.type === 'book_change')
        .map((m) => micros(m.localTimestamp));
      const interval = !name.endsWith('_0ms');
      let changes = 0;
      let applied = 0;
      let atInstant = 0;
      let row = 0;
      computed.forEach((m, i) => {
        if (m.type === 'book_change') changes++;
        if (m.type !== 'book_snapshot' || m.name !== name) return;
        const { ms, levels } = rows[row++]!;
        expect(ms).toBe(Math.floor(micros(m.localTimestamp) / 1000));
        // Exactly, one record per message: the book after the changes before this snapshot, or for
        // a snapshot at the end of an interval (its timestamp), the changes up to that end.
        const upTo = interval ? changeTimes.filter((t) => t <= micros(m.timestamp)).length : changes;
        while (applied < upTo) byMessage.apply(books[applied++]!);
        expect(top(byMessage.book('bitmex', 'BTC/USD')!), `${name} ${m.localTimestamp}`).toEqual(levels);
        // At its instant, as a reader of the recording sees it: for the snapshots taken after each
        // change, unless a later change falls in the same millisecond (records carry milliseconds).
        if (interval) return;
        const later = computed.slice(i + 1).find((n) => n.type === 'book_change');
        if (later !== undefined && Math.floor(micros(later.localTimestamp) / 1000) === ms) return;
        expect(byInstant.at(ms, 'bitmex', 'BTC/USD', depth), m.localTimestamp).toEqual(levels);
        atInstant++;
      });
      if (!interval) expect(atInstant).toBeGreaterThan(1200);
    }
  });

  it('normalized book_snapshot messages are snapshots; a book fed by book_change refuses the snapshot streams beside it', () => {
    const computed = readMessages(COMPUTED);
    const top5 = computed.filter((m) => m.type === 'book_snapshot' && m.name === 'book_snapshot_5_0ms');
    const only = join(tmp, 'bitmex_top5.jsonl');
    writeFileSync(only, top5.map((m) => JSON.stringify(m)).join('\n'));
    const r = importCli(
      ['--format', 'tardis-normalized', '--out', 'snap', '--symbols', symbolsFile, only],
      tmp,
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    const books = readRecording(join(tmp, 'snap', 'tardis.jsonl')).filter((x) => x.type === 'book');
    expect(books.map((b) => b.type === 'book' && [b.snapshot, b.bids, b.asks])).toEqual(
      top5.map((m) => [true, m.bids.map((l) => [l.price, l.amount]), m.asks.map((l) => [l.price, l.amount])]),
    );
    // The whole computed stream: the book_change messages feed the book, the three snapshot
    // streams (10 levels each second, 5 at every change, 3 each 100 ms) are refused, named once.
    const mixed = importCli(
      ['--format', 'tardis-normalized', '--out', 'mixed', '--symbols', symbolsFile, COMPUTED],
      tmp,
    );
    expect(mixed.code, mixed.err.join('\n')).toBe(0);
    expect(
      mixed.err
        .filter((l) => l.includes(': second source: '))
        .map((l) => l.replace(/^.*: second source: /, '')),
    ).toEqual([
      "bitmex XBTUSD is already fed by book_change; this file's book_snapshot book_snapshot_10_1000ms rows for it are left out",
      "bitmex XBTUSD is already fed by book_change; this file's book_snapshot book_snapshot_5_0ms rows for it are left out",
      "bitmex XBTUSD is already fed by book_change; this file's book_snapshot book_snapshot_3_100ms rows for it are left out",
    ]);
    const snapshots = computed.filter((m) => m.type === 'book_snapshot').length;
    expect(mixed.err.at(-1)).toBe(
      `bad rows: second source 3; left out: ${snapshots} rows of unmapped or doubly fed books, ${computed.length - snapshots - 3719} messages of other types`,
    );
  });

  it('book_snapshot_25 rows are whole snapshots, their top 5 equal to the book_snapshot_5 rows of the same instants; an L2 file of another venue beside them (nautilus extracts)', () => {
    const dir = join(__dirname, 'fixtures', 'nautilus');
    const r = importCli(
      [
        '--format',
        'tardis-csv',
        '--out',
        'n25',
        '--symbols',
        symbolsFile,
        join(dir, 'binance-futures_book_snapshot_25_BTCUSDT.csv'),
        join(dir, 'deribit_incremental_book_L2_BTC-PERPETUAL.csv'),
      ],
      tmp,
    );
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(r.err).toContain('mapped binance-futures BTCUSDT -> binanceusdm BTC/USDT');
    const records = readRecording(join(tmp, 'n25', 'tardis.jsonl'));
    // deribit's extract is the first 15 rows of its day: the asks of its opening snapshot.
    const deribit = records.filter((x) => x.type === 'book' && x.exchangeId === 'deribit');
    expect(deribit.map((b) => b.type === 'book' && [b.snapshot, b.bids.length, b.asks.length])).toEqual([
      [true, 0, 15],
    ]);
    const books = records.filter((x) => x.type === 'book' && x.exchangeId === 'binanceusdm');
    expect(
      books.map((b) => b.type === 'book' && [b.snapshot, b.bids.length, b.asks.length, b.sequence]),
    ).toEqual(Array.from({ length: 10 }, (_, i) => [true, 25, 25, i + 1]));
    const top5 = snapshotRows(join(dir, 'binance-futures_book_snapshot_5_BTCUSDT.csv'));
    const fold = new FoldAt(records);
    const shared = top5.filter((row) => books.some((b) => b.receivedAt === row.ms));
    expect(shared).toHaveLength(4);
    for (const row of shared) expect(fold.at(row.ms, 'binanceusdm', 'BTC/USDT', 5)).toEqual(row.levels);
  });
});

function toLevels(s: BookSideView, depth: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < Math.min(depth, s.count); i++) out.push([s.price(i), s.amount(i)]);
  return out;
}

/** A book_snapshot_N file's rows as [bids, asks] best first, read apart from the import. */
function snapshotRows(file: string): { ms: number; levels: number[][][] }[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.slice(1).map((line) => {
    const f = line.split(',');
    const bids: number[][] = [];
    const asks: number[][] = [];
    for (let i = 4; i + 3 < f.length; i += 4) {
      if (f[i] !== '') asks.push([Number(f[i]), Number(f[i + 1])]);
      if (f[i + 2] !== '') bids.push([Number(f[i + 2]), Number(f[i + 3])]);
    }
    return { ms: Math.floor(Number(f[3]) / 1000), levels: [bids, asks] };
  });
}
