import { crc32 } from 'node:zlib';
import type { CcxtBook, CcxtProExchange } from './ccxt-venue';

/** A broken book seen in one message: which book (null = every book of the connection) and how. */
export interface IntegrityFault {
  readonly symbol: string | null;
  readonly kind: 'gap' | 'checksum';
  readonly detail: string;
}

/** What a check may read: ccxt's live books and its market-id -> symbol mapping. */
export interface IntegrityView {
  readonly orderbooks: Readonly<Record<string, CcxtBook | undefined>>;
  symbolOf(marketId: string): string | undefined;
  /** Decimal places of the market's price and amount (ccxt's precision), for checksums over numbers. */
  decimalsOf(symbol: string): { readonly price: number; readonly amount: number } | undefined;
}

/**
 * One venue's integrity check, run on every message after ccxt handled it (so ccxt's book is the
 * state the venue's checksum describes). `client` tells connections apart (sequence numbers that
 * count per connection). Only the checks ccxt leaves out live here; ccxt's own are ccxt's.
 */
export interface IntegrityCheck {
  after(message: unknown, client: object, view: IntegrityView): IntegrityFault | null;
}

type Row = ArrayLike<number>;
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** How often a checksum of the venue's state is verified per book (ms; 0 = every message). */
export const DEFAULT_CHECKSUM_EVERY_MS = 1000;

/** A sampled checksum check's knobs: its interval per book, and its clock (ms, monotonic). */
export interface ChecksumSampling {
  /** Verify each book at most once per this many ms; 0 = every message. Default 1000. */
  readonly everyMs?: number;
  /** The clock (ms); the ingestor passes its monotonic clock, tests a fake one. */
  readonly now?: () => number;
}

/**
 * When a book's checksum is due: the first message of a (re)subscription (its snapshot), the first
 * change after it (the first delta applied to that state), then at most one message per `everyMs`. A checksum describes the venue's book after each message,
 * and a book that diverged stays diverged until it is resynced, so every lasting divergence is
 * still found, within the interval plus one message (docs/venues.md "Integrity checks").
 */
function sampler(opts: ChecksumSampling): {
  due(symbol: string, snapshot: boolean): boolean;
  /** `symbol`'s checksum was verified now; after a snapshot the next message is due as well. */
  verified(symbol: string, snapshot?: boolean): void;
} {
  const everyMs = opts.everyMs ?? DEFAULT_CHECKSUM_EVERY_MS;
  const now = opts.now ?? (() => performance.now());
  const last = new Map<string, number>();
  return {
    due: (symbol, snapshot) => {
      if (everyMs === 0 || snapshot) return true;
      const at = last.get(symbol);
      return at === undefined || now() - at >= everyMs;
    },
    verified: (symbol, snapshot = false) => {
      if (snapshot) last.delete(symbol);
      else if (everyMs > 0) last.set(symbol, now());
    },
  };
}

/**
 * OKX `books`: CRC32 (signed) of the top 25 bids and asks interleaved, price:size in the strings
 * the venue sent (OKX v5 docs, "Checksum"). ccxt pro/okx.js does not read it (it checks the
 * seqId/prevSeqId chain itself: InvalidNonce, the book dropped). ccxt stores numbers; OKX sends
 * plain decimals that print back the same (6,000 levels of the recorded traffic, all of them), so
 * only a level whose strings would not is kept as sent: the check holds no copy of the books.
 * Sampled (`sampling.everyMs`, default 1000): a book is verified at most once per interval, its
 * snapshot and the first change after it always; a message in between is not verified, and the
 * state after it is not trusted.
 */
export function okxCheck(sampling: ChecksumSampling = {}): IntegrityCheck {
  /** Per book and side: the levels whose strings differ from the numbers printed (usually none). */
  const odd = new Map<string, Map<number, string>>();
  const remember = (book: Map<number, string>, rows: unknown): void => {
    if (!Array.isArray(rows)) return;
    for (const r of rows as string[][]) {
      const price = Number(r[0]);
      const size = Number(r[1]);
      if (size === 0 || (String(price) === r[0] && String(size) === r[1])) {
        if (book.size > 0) book.delete(price);
      } else book.set(price, `${r[0]}:${r[1]}`);
    }
  };
  const level = (side: Map<number, string>, row: Row): string =>
    (side.size > 0 ? side.get(row[0]!) : undefined) ?? `${row[0]}:${row[1]}`;
  /**
   * Per book: the checksum last verified, while the top 25 it covers has not changed since. A
   * message not verified drops it: the state after it is unverified until the next recompute.
   */
  const verified = new Map<string, number>();
  const timer = sampler(sampling);
  /** Whether a change at any of `rows`' prices can be in the top 25 of `side` (dir 1 bids, -1 asks). */
  const reaches = (side: ArrayLike<Row>, rows: unknown, dir: 1 | -1): boolean => {
    if (!Array.isArray(rows) || rows.length === 0) return false;
    const last = side[24];
    if (last === undefined) return true;
    for (const r of rows as string[][]) if (dir * (Number(r[0]) - last[0]!) >= 0) return true;
    return false;
  };
  return {
    after(message, _client, view) {
      const m = obj(message);
      const arg = obj(m?.arg);
      if (arg?.channel !== 'books' || typeof arg.instId !== 'string') return null;
      const symbol = view.symbolOf(arg.instId);
      const data = obj((m!.data as unknown[] | undefined)?.[0]);
      if (symbol === undefined || data === undefined) return null;
      let bids = odd.get(`${symbol}|b`);
      let asks = odd.get(`${symbol}|a`);
      const snapshot = m!.action === 'snapshot' || bids === undefined || asks === undefined;
      if (snapshot) {
        odd.set(`${symbol}|b`, (bids = new Map<number, string>()));
        odd.set(`${symbol}|a`, (asks = new Map<number, string>()));
      }
      remember(bids!, data.bids);
      remember(asks!, data.asks);
      const book = view.orderbooks[symbol];
      const expected = Number(data.checksum);
      if (book === undefined || !Number.isFinite(expected) || data.checksum === undefined) {
        verified.delete(symbol);
        return null;
      }
      // A change below the 25th level on both sides leaves the text, so the checksum, as verified
      // (exact, so it counts as a verification of this state).
      const before = verified.get(symbol);
      verified.delete(symbol);
      if (
        before === expected &&
        !snapshot &&
        !reaches(book.bids, data.bids, 1) &&
        !reaches(book.asks, data.asks, -1)
      ) {
        verified.set(symbol, expected);
        timer.verified(symbol);
        return null;
      }
      if (!timer.due(symbol, snapshot)) return null;
      let text = '';
      for (let i = 0; i < 25; i++) {
        const b: Row | undefined = book.bids[i];
        const a: Row | undefined = book.asks[i];
        if (b !== undefined) text += (text === '' ? '' : ':') + level(bids!, b);
        if (a !== undefined) text += (text === '' ? '' : ':') + level(asks!, a);
      }
      const got = crc32(text) | 0;
      timer.verified(symbol, snapshot);
      if (got !== expected) return { symbol, kind: 'checksum', detail: `CRC32 ${got} != ${expected}` };
      verified.set(symbol, got);
      return null;
    },
  };
}

/**
 * Kraken websocket v2 `book`: CRC32 (unsigned) of the top 10 asks then the top 10 bids, each
 * price and quantity printed with the pair's precision, point and leading zeros dropped (Kraken
 * docs, "Book checksum"). ccxt's own check is off and broken (it splits numbers as strings).
 * Sampled as OKX's (`sampling.everyMs`, default 1000): its snapshot and the first change after it
 * always, then once per interval.
 */
export function krakenCheck(sampling: ChecksumSampling = {}): IntegrityCheck {
  const timer = sampler(sampling);
  return {
    after(message, _client, view) {
      const m = obj(message);
      if (m?.channel !== 'book' || (m.type !== 'snapshot' && m.type !== 'update')) return null;
      const data = obj((m.data as unknown[] | undefined)?.[0]);
      const symbol = typeof data?.symbol === 'string' ? data.symbol : undefined;
      if (symbol === undefined || typeof data?.checksum !== 'number') return null;
      const book = view.orderbooks[symbol];
      const d = view.decimalsOf(symbol);
      if (book === undefined || d === undefined || !timer.due(symbol, m.type === 'snapshot')) return null;
      timer.verified(symbol, m.type === 'snapshot');
      const f = (x: number, places: number): string => x.toFixed(places).replace('.', '').replace(/^0+/, '');
      let text = '';
      for (let i = 0; i < 10 && i < book.asks.length; i++)
        text += f(book.asks[i]![0]!, d.price) + f(book.asks[i]![1]!, d.amount);
      for (let i = 0; i < 10 && i < book.bids.length; i++)
        text += f(book.bids[i]![0]!, d.price) + f(book.bids[i]![1]!, d.amount);
      const got = crc32(text) >>> 0;
      return got === data.checksum
        ? null
        : { symbol, kind: 'checksum', detail: `CRC32 ${got} != ${data.checksum}` };
    },
  };
}

/**
 * CoinEx v2 `depth.update` with full books (ccxt subscribes is_full): CRC32 (unsigned) of
 * bid1_price:bid1_amount:...:ask1_price:ask1_amount over the book sent (CoinEx docs, "Market
 * depth"); ccxt pro/coinex.js leaves its check commented out.
 */
export function coinexCheck(): IntegrityCheck {
  return {
    after(message, _client, view) {
      const m = obj(message);
      if (m?.method !== 'depth.update') return null;
      const data = obj(m.data);
      const depth = obj(data?.depth);
      if (data?.is_full !== true || depth?.checksum === undefined || typeof data.market !== 'string')
        return null;
      const rows = [
        ...((depth.bids as string[][] | undefined) ?? []),
        ...((depth.asks as string[][] | undefined) ?? []),
      ];
      const got = crc32(rows.map((r) => `${r[0]}:${r[1]}`).join(':')) >>> 0;
      const expected = Number(depth.checksum) >>> 0;
      const symbol = view.symbolOf(data.market) ?? null;
      return got === expected ? null : { symbol, kind: 'checksum', detail: `CRC32 ${got} != ${expected}` };
    },
  };
}

/**
 * Bybit v5 `orderbook.*`: each delta's update id `u` follows the last by one; a snapshot (or u = 1,
 * a service restart) starts again (Bybit docs, "Orderbook"). ccxt pro/bybit.js does not check.
 */
export function bybitCheck(): IntegrityCheck {
  const last = new Map<string, number>();
  return {
    after(message, client, view) {
      const m = obj(message);
      if (typeof m?.topic !== 'string' || !m.topic.startsWith('orderbook.')) return null;
      const data = obj(m.data);
      const u = Number(data?.u);
      if (typeof data?.s !== 'string' || !Number.isFinite(u)) return null;
      const symbol = view.symbolOf(data.s) ?? null;
      const key = `${symbol}|${(client as { url?: string }).url ?? ''}`;
      const prev = last.get(key);
      last.set(key, u);
      if (m.type === 'snapshot' || u === 1 || prev === undefined || u === prev + 1) return null;
      return { symbol, kind: 'gap', detail: `u ${u} after ${prev}` };
    },
  };
}

/**
 * Coinbase Advanced Trade: `sequence_num` counts every message of a connection; one missing means
 * any book on it may have missed a change (Coinbase docs, "Sequence numbers"). ccxt does not check.
 */
export function coinbaseCheck(): IntegrityCheck {
  const last = new WeakMap<object, number>();
  return {
    after(message, client) {
      const m = obj(message);
      const seq = m?.sequence_num;
      if (typeof seq !== 'number') return null;
      const prev = last.get(client);
      last.set(client, seq);
      if (prev === undefined || seq === prev + 1 || seq === 0) return null;
      return { symbol: null, kind: 'gap', detail: `sequence_num ${seq} after ${prev}` };
    },
  };
}

/**
 * The ingestor's own integrity checks by venue (VENUES_CONFIG `checksum: false` turns them off).
 * The checksum checks over the ingestor's book (okx family, kraken) are sampled per book
 * (`checksumEveryMs`); the others read only the message and see every one.
 */
export const INTEGRITY_CHECKS: Readonly<Record<string, (sampling?: ChecksumSampling) => IntegrityCheck>> =
  Object.freeze({
    okx: okxCheck,
    myokx: okxCheck,
    okxus: okxCheck,
    kraken: krakenCheck,
    coinex: coinexCheck,
    bybit: bybitCheck,
    bybiteu: bybitCheck,
    bybitid: bybitCheck,
    coinbase: coinbaseCheck,
  });

/** What integrity checks read of a ccxt exchange. */
export function integrityView(ex: CcxtProExchange): IntegrityView {
  const places = (tick: number | undefined): number =>
    tick === undefined || !(tick > 0) || tick >= 1 ? 0 : Math.round(-Math.log10(tick));
  return {
    get orderbooks() {
      return ex.orderbooks ?? {};
    },
    symbolOf: (id) => {
      const symbol = ex.safeSymbol(id);
      return ex.markets?.[symbol] === undefined ? undefined : symbol;
    },
    decimalsOf: (symbol) => {
      const p = ex.markets?.[symbol]?.precision;
      return p === undefined ? undefined : { price: places(p.price), amount: places(p.amount) };
    },
  };
}
