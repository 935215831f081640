import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CcxtBook } from './ccxt-venue';
import {
  bybitCheck,
  coinbaseCheck,
  coinexCheck,
  krakenCheck,
  okxCheck,
  type IntegrityView,
} from './integrity';

/** A book as ccxt holds it (numbers, best first). */
function book(bids: number[][], asks: number[][]): CcxtBook {
  return { symbol: 'BTC/USDT', bids, asks };
}

function view(books: Record<string, CcxtBook>, decimals = { price: 1, amount: 8 }): IntegrityView {
  return {
    orderbooks: books,
    symbolOf: (id) => (id === 'BTC-USDT' || id === 'BTCUSDT' ? 'BTC/USDT' : undefined),
    decimalsOf: () => decimals,
  };
}

const client = { url: 'ws://x' };

describe('okx: CRC32 of the top 25 interleaved over the strings sent', () => {
  const frame = (
    action: string,
    bids: string[][],
    asks: string[][],
    checksum: number,
    seqId: number,
    prevSeqId: number,
  ) => ({
    arg: { channel: 'books', instId: 'BTC-USDT' },
    action,
    data: [{ bids, asks, checksum, seqId, prevSeqId }],
  });
  // OKX's example: the string is bid:ask pairs in turn, as the venue printed them ("3366.10" kept).
  const text = '3366.10:7:3366.8:9:3366:6:3368:8';
  const sum = crc32(text) | 0;
  /** The example's book as ccxt holds it (numbers), and its snapshot frame as OKX sends it (strings). */
  const exampleBook = (): ReturnType<typeof book> =>
    book(
      [
        [3366.1, 7],
        [3366, 6],
      ],
      [
        [3366.8, 9],
        [3368, 8],
      ],
    );
  const exampleSnapshot = (checksum: number): ReturnType<typeof frame> =>
    frame(
      'snapshot',
      [
        ['3366.10', '7', '0', '1'],
        ['3366', '6', '0', '1'],
      ],
      [
        ['3366.8', '9', '0', '1'],
        ['3368', '8', '0', '1'],
      ],
      checksum,
      10,
      -1,
    );
  it('passes a book whose checksum matches, with the strings the venue sent (not the numbers)', () => {
    const check = okxCheck({ everyMs: 0 });
    const b = exampleBook();
    const m = exampleSnapshot(sum);
    expect(check.after(m, client, view({ 'BTC/USDT': b }))).toBeNull();
  });
  it('flags a mismatch, and leaves the seqId chain to ccxt', () => {
    const check = okxCheck({ everyMs: 0 });
    const b = exampleBook();
    const snap = exampleSnapshot(sum + 1);
    expect(check.after(snap, client, view({ 'BTC/USDT': b }))).toMatchObject({
      symbol: 'BTC/USDT',
      kind: 'checksum',
    });
    // ccxt pro/okx.js handleOrderBookMessage rejects a broken chain itself (InvalidNonce).
    const gap = frame('update', [], [], sum, 12, 11);
    expect(check.after(gap, client, view({ 'BTC/USDT': b }))).toBeNull();
  });
  it('a change below the 25th level keeps the verified checksum; one the venue says moved the top is checked', () => {
    const check = okxCheck({ everyMs: 0 });
    const side = (from: number, dir: number) => Array.from({ length: 30 }, (_, i) => [from + dir * i, 1 + i]);
    const bids = side(100, -1);
    const asks = side(200, 1);
    const b = book(bids, asks);
    const strs = (rows: number[][]) => rows.map((r) => [String(r[0]), String(r[1]), '0', '1']);
    const top = Array.from(
      { length: 25 },
      (_, i) => `${bids[i]![0]}:${bids[i]![1]}:${asks[i]![0]}:${asks[i]![1]}`,
    );
    const sum25 = crc32(top.join(':')) | 0;
    const v = view({ 'BTC/USDT': b });
    expect(check.after(frame('snapshot', strs(bids), strs(asks), sum25, 1, -1), client, v)).toBeNull();
    // Level 28 of the bids changes (ccxt applied it): the top 25, so the checksum, stay.
    bids[27]![1] = 99;
    expect(check.after(frame('update', [['73', '99', '0', '1']], [], sum25, 2, 1), client, v)).toBeNull();
    // The venue's checksum moved although the change is deep: recomputed, and ours is not it.
    expect(
      check.after(frame('update', [['73', '98', '0', '1']], [], sum25 + 1, 3, 2), client, v),
    ).toMatchObject({
      kind: 'checksum',
    });
    // A change inside the top 25 is recomputed: ccxt's book says level 2 is now 5.
    bids[1]![1] = 5;
    const moved = [...top];
    moved[1] = `${bids[1]![0]}:5:${asks[1]![0]}:${asks[1]![1]}`;
    const sumMoved = crc32(moved.join(':')) | 0;
    expect(check.after(frame('update', [['99', '5', '0', '1']], [], sumMoved, 4, 3), client, v)).toBeNull();
    expect(check.after(frame('update', [['99', '5', '0', '1']], [], sum25, 5, 4), client, v)).toMatchObject({
      kind: 'checksum',
    });
  });
});

describe('okx: sampled, each book verified at most once per interval', () => {
  /** 30 levels a side (deeper than the 25 the checksum covers), prices that print as sent. */
  const sides = () => ({
    bids: Array.from({ length: 30 }, (_, i) => [100 - i, 1 + i]),
    asks: Array.from({ length: 30 }, (_, i) => [200 + i, 1 + i]),
  });
  /** The venue's checksum of a book: its top 25 interleaved. */
  const sumOf = (b: { bids: number[][]; asks: number[][] }): number => {
    const parts: string[] = [];
    for (let i = 0; i < 25; i++)
      parts.push(`${b.bids[i]![0]}:${b.bids[i]![1]}:${b.asks[i]![0]}:${b.asks[i]![1]}`);
    return crc32(parts.join(':')) | 0;
  };
  const strs = (rows: number[][]) => rows.map((r) => [String(r[0]), String(r[1]), '0', '1']);
  let seq = 0;
  const msg = (action: string, bids: number[][], asks: number[][], checksum: number) => ({
    arg: { channel: 'books', instId: 'BTC-USDT' },
    action,
    data: [{ bids: strs(bids), asks: strs(asks), checksum, seqId: ++seq, prevSeqId: seq - 1 }],
  });
  /** A venue and our copy of its book (as ccxt holds it), on a clock the test moves. */
  function setup(everyMs?: number) {
    const clock = { t: 0 };
    const check = okxCheck(everyMs === undefined ? { now: () => clock.t } : { everyMs, now: () => clock.t });
    const venue = sides();
    const ours = sides();
    const v = view({ 'BTC/USDT': book(ours.bids, ours.asks) });
    /** The venue changes bid level `i` to `amount`; ccxt applies `sent` (the same unless a fault). */
    const update = (i: number, amount: number, sent = amount) => {
      venue.bids[i]![1] = amount;
      ours.bids[i]![1] = sent;
      return check.after(msg('update', [[venue.bids[i]![0]!, sent]], [], sumOf(venue)), client, v);
    };
    expect(check.after(msg('snapshot', venue.bids, venue.asks, sumOf(venue)), client, v)).toBeNull();
    // The first change after a snapshot is always verified: the interval runs from here.
    expect(update(0, 1)).toBeNull();
    return { clock, check, venue, ours, v, update };
  }

  it('finds a book whose copy diverged at the first verification after the interval (1000 ms by default)', () => {
    const { clock, ours, update } = setup();
    // Our copy loses a change at level 3 (what a missed message leaves): the books now differ.
    ours.bids[2]![1] = 42;
    for (clock.t = 100; clock.t < 1000; clock.t += 100) expect(update(0, clock.t)).toBeNull();
    clock.t = 1000;
    expect(update(0, 7)).toMatchObject({ symbol: 'BTC/USDT', kind: 'checksum' });
  });

  it('an update whose levels disagree with its checksum diverges the book: found once due, though every later change is deep', () => {
    const { clock, update } = setup();
    clock.t = 10;
    // The venue says level 2 is 5; the frame we got says 6. Not due yet: not verified, not trusted.
    expect(update(1, 5, 6)).toBeNull();
    // Changes below the 25th level from then on: the venue's checksum stays the same, and a check
    // that took the unverified state for verified would let each of them through for good.
    for (clock.t = 20; clock.t < 1000; clock.t += 100) expect(update(27, clock.t)).toBeNull();
    clock.t = 1000;
    expect(update(27, 3)).toMatchObject({ kind: 'checksum' });
  });

  it('a verification restarts the interval; a good book passes every one', () => {
    const { clock, update } = setup();
    clock.t = 1000;
    expect(update(0, 9)).toBeNull();
    // Verified at 1000: a divergence at 1500 is found at 2000, not before.
    clock.t = 1500;
    expect(update(1, 5, 6)).toBeNull();
    clock.t = 1999;
    expect(update(0, 8)).toBeNull();
    clock.t = 2000;
    expect(update(0, 7)).toMatchObject({ kind: 'checksum' });
  });

  it('a snapshot and the first change after it are always verified, whatever the interval', () => {
    const { clock, check, venue, v, update } = setup(60_000);
    clock.t = 1;
    expect(check.after(msg('snapshot', venue.bids, venue.asks, sumOf(venue) + 1), client, v)).toMatchObject({
      kind: 'checksum',
    });
    // Resubscribed: a good snapshot, then its first change arrives garbled: found at once.
    expect(check.after(msg('snapshot', venue.bids, venue.asks, sumOf(venue)), client, v)).toBeNull();
    clock.t = 2;
    expect(update(1, 5, 6)).toMatchObject({ kind: 'checksum' });
    // Later changes wait for the interval (60 s here) after that verification.
    clock.t = 3;
    expect(update(1, 4, 6)).toBeNull();
    clock.t = 60_002;
    expect(update(1, 3, 6)).toMatchObject({ kind: 'checksum' });
  });

  it('with interval 0 every update is verified', () => {
    const { update } = setup(0);
    // The clock never moves: each wrong update is still caught, and each good one passes.
    expect(update(0, 9, 8)).toMatchObject({ kind: 'checksum' });
    expect(update(0, 7)).toBeNull();
    expect(update(27, 4, 5)).toBeNull(); // deep: outside the checksum, and the top 25 agree
    expect(update(1, 4, 5)).toMatchObject({ kind: 'checksum' });
    expect(update(1, 3, 3)).toBeNull();
  });
});

describe('kraken v2: CRC32 of the top 10 asks then bids at the pair precision', () => {
  it('passes the matching checksum and flags another', () => {
    const b = book([[65000.1, 0.5]], [[65000.2, 1.25]]);
    const text = '650002' + '125000000' + '650001' + '50000000';
    const ok = {
      channel: 'book',
      type: 'update',
      data: [{ symbol: 'BTC/USDT', bids: [], asks: [], checksum: crc32(text) >>> 0 }],
    };
    expect(krakenCheck().after(ok, client, view({ 'BTC/USDT': b }))).toBeNull();
    const bad = { ...ok, data: [{ ...ok.data[0], checksum: 1 }] };
    expect(krakenCheck({ everyMs: 0 }).after(bad, client, view({ 'BTC/USDT': b }))).toMatchObject({
      kind: 'checksum',
    });
    // Sampled (default 1000 ms): its snapshot and the change after it always, then once per interval.
    let t = 0;
    const sampled = krakenCheck({ now: () => t });
    expect(sampled.after({ ...bad, type: 'snapshot' }, client, view({ 'BTC/USDT': b }))).toMatchObject({
      kind: 'checksum',
    });
    t = 10; // the first change after the snapshot: verified too
    expect(sampled.after(bad, client, view({ 'BTC/USDT': b }))).toMatchObject({ kind: 'checksum' });
    t = 1009;
    expect(sampled.after(bad, client, view({ 'BTC/USDT': b }))).toBeNull();
    t = 1010;
    expect(sampled.after(bad, client, view({ 'BTC/USDT': b }))).toMatchObject({ kind: 'checksum' });
  });
});

describe('coinex: CRC32 of every bid then ask of a full book', () => {
  it('passes the matching checksum and flags another', () => {
    const depth = { bids: [['100', '1']], asks: [['101', '2']], checksum: crc32('100:1:101:2') >>> 0 };
    const ok = { method: 'depth.update', data: { market: 'BTCUSDT', is_full: true, depth } };
    expect(coinexCheck().after(ok, client, view({}))).toBeNull();
    const bad = { ...ok, data: { ...ok.data, depth: { ...depth, checksum: 5 } } };
    expect(coinexCheck().after(bad, client, view({}))).toMatchObject({
      symbol: 'BTC/USDT',
      kind: 'checksum',
    });
  });
});

describe('bybit u and coinbase sequence_num', () => {
  it('bybit: a delta must follow the last update id by one; a snapshot starts again', () => {
    const check = bybitCheck();
    const m = (type: string, u: number) => ({
      topic: 'orderbook.200.BTCUSDT',
      type,
      data: { s: 'BTCUSDT', u },
    });
    const v = view({});
    expect(check.after(m('snapshot', 100), client, v)).toBeNull();
    expect(check.after(m('delta', 101), client, v)).toBeNull();
    expect(check.after(m('delta', 103), client, v)).toMatchObject({ symbol: 'BTC/USDT', kind: 'gap' });
    expect(check.after(m('snapshot', 7), client, v)).toBeNull();
    expect(check.after(m('delta', 8), client, v)).toBeNull();
  });
  it('coinbase: sequence_num counts per connection; a gap names every book of it', () => {
    const check = coinbaseCheck();
    const other = { url: 'ws://y' };
    expect(check.after({ sequence_num: 0 }, client, view({}))).toBeNull();
    expect(check.after({ sequence_num: 1 }, client, view({}))).toBeNull();
    expect(check.after({ sequence_num: 0 }, other, view({}))).toBeNull();
    expect(check.after({ sequence_num: 3 }, client, view({}))).toMatchObject({ symbol: null, kind: 'gap' });
  });
});
