import type { BookState } from './book-state';
import { Input, type MessageFields, type RowSink } from './input';
import type { NumberFault } from './numbers';

type Level = { readonly price: number; readonly amount: number };

const ISO = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;

/** An ISO time with up to nine fractional digits (tardis writes microseconds) as epoch µs, or -1. */
export function isoMicros(text: unknown): number {
  if (typeof text !== 'string') return -1;
  const m = ISO.exec(text);
  if (m === null) return -1;
  const seconds = Date.parse(`${m[1]!}Z`);
  if (!Number.isFinite(seconds) || seconds < 0) return -1;
  const micros = Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
  return seconds * 1000 + micros;
}

/**
 * Normalized messages as tardis-machine and tardis-node write them, one JSON object per line:
 * `book_change` (`isSnapshot`, `bids`/`asks` of `{price, amount}`, amount 0 removing a level) and
 * `book_snapshot` (the top `depth` levels, whole). Other types (trades, quotes, ...) are counted
 * and passed over; `timestamp` and `localTimestamp` are ISO times with microseconds.
 */
export class NormalizedInput extends Input implements MessageFields {
  book: BookState | null = null;
  tsUs = 0;
  snapshot = false;
  bids: readonly Level[] = [];
  asks: readonly Level[] = [];
  /** Messages of other types, passed over. */
  others = 0;

  deliver(sink: RowSink): void {
    sink.message(this);
  }

  next(): boolean {
    const r = this.lines;
    while (r.pos < r.end) {
      const nl = r.lineEnd();
      const text = r.text(nl);
      const line = r.line;
      r.skip(nl);
      if (text.trim() === '') continue;
      this.rows++;
      if (this.read(text, line)) return true;
    }
    return false;
  }

  private read(text: string, line: number): boolean {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      this.bad('malformed', line, 'not a JSON object');
      return false;
    }
    if (typeof m !== 'object' || m === null || Array.isArray(m)) {
      this.bad('malformed', line, 'not a JSON object');
      return false;
    }
    const o = m as Record<string, unknown>;
    if (o.type !== 'book_change' && o.type !== 'book_snapshot') {
      this.others++;
      return false;
    }
    const fault = (detail: string, kind: NumberFault = 'malformed'): false => {
      this.bad(kind, line, `${o.type as string}: ${detail}`);
      return false;
    };
    if (
      typeof o.exchange !== 'string' ||
      o.exchange === '' ||
      typeof o.symbol !== 'string' ||
      o.symbol === ''
    )
      return fault('exchange and symbol must be non-empty strings');
    const local = isoMicros(o.localTimestamp);
    if (local < 0) return fault('localTimestamp must be an ISO time in UTC (...Z)');
    const ts = o.timestamp === undefined || o.timestamp === null ? local : isoMicros(o.timestamp);
    if (ts < 0) return fault('timestamp must be an ISO time in UTC (...Z)');
    if (o.type === 'book_change' && typeof o.isSnapshot !== 'boolean')
      return fault('isSnapshot must be true or false');
    for (const key of ['bids', 'asks'] as const) {
      const side = o[key];
      if (!Array.isArray(side)) return fault(`${key} must be an array of {price, amount}`);
      for (let i = 0; i < side.length; i++) {
        const l = side[i] as Partial<Level> | null;
        const price = l?.price;
        const amount = l?.amount;
        if (typeof price !== 'number' || typeof amount !== 'number')
          return fault(`${key}[${i}] must be {price, amount} numbers`);
        // JSON has no NaN, but 1e999 parses to Infinity.
        if (!Number.isFinite(price) || !Number.isFinite(amount))
          return fault(`${key}[${i}] has a number that is not finite`, 'non_finite');
        if (price < 0 || amount < 0) return fault(`${key}[${i}] has a negative number`, 'negative');
        if (price === 0) return fault(`${key}[${i}].price must be > 0`);
      }
    }
    if (!this.inOrder(local, line)) return false;
    const source = o.type === 'book_change' ? 'book_change' : `book_snapshot ${String(o.name ?? o.depth)}`;
    this.line = line;
    this.book = this.ctx.books.book(o.exchange, o.symbol, source, this);
    this.localUs = local;
    this.tsUs = ts === local ? -1 : ts;
    this.snapshot = o.type === 'book_snapshot' || o.isSnapshot === true;
    this.bids = o.bids as Level[];
    this.asks = o.asks as Level[];
    return true;
  }
}
