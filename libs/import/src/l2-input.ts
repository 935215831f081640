import type { BookState } from './book-state';
import { L2Source, type RowSink } from './input';
import { decimalAt, integerAt, lastDecimal, latin1, numberFault, POW10, utf8 } from './numbers';

export const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';

/**
 * An incremental_book_L2 file: `exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount`,
 * one price level per row, timestamps in microseconds. Rows are read straight from the bytes: the
 * fields are found in one pass, numbers parsed without making strings, and the `price,amount`
 * text kept in place for the writer to copy.
 */
export class L2Input extends L2Source {
  /** The `exchange,symbol,` bytes of the last row and its book: most rows repeat them. */
  private key: Buffer = Buffer.alloc(0);
  private keyBook: BookState | null = null;
  private readonly commas = new Int32Array(8);

  deliver(sink: RowSink): void {
    sink.l2Row(this);
  }

  next(): boolean {
    const r = this.lines;
    while (r.pos < r.end) {
      const a = r.pos;
      const line = r.line;
      this.rows++;
      const quick = this.quick(a, line);
      if (quick >= 0) {
        r.skip(quick);
        return true;
      }
      const nl = r.buf.indexOf(10, a);
      r.skip(nl);
      if (this.careful(a, nl, line)) return true;
    }
    return false;
  }

  /**
   * The common row in one pass over its bytes: the same exchange and symbol as the row before,
   * then digits, flags and plain decimals parsed as they are met. Returns the index of the row's
   * newline, or -1 for any other row, which `careful` then reads field by field (and names what
   * is wrong with it).
   */
  private quick(a: number, line: number): number {
    const buf = this.lines.buf;
    const key = this.key;
    const klen = key.length;
    if (klen === 0) return -1;
    for (let k = 0; k < klen; k++) if (buf[a + k] !== key[k]) return -1;
    let i = a + klen;
    const t0 = i;
    let ts = 0;
    for (let c = buf[i]!; c >= 48 && c <= 57; c = buf[++i]!) ts = ts * 10 + (c - 48);
    if (buf[i] !== 44 || i === t0 || i - t0 > 16 || ts > Number.MAX_SAFE_INTEGER) return -1;
    const l0 = ++i;
    let local = 0;
    for (let c = buf[i]!; c >= 48 && c <= 57; c = buf[++i]!) local = local * 10 + (c - 48);
    if (buf[i] !== 44 || i === l0 || i - l0 > 16 || local > Number.MAX_SAFE_INTEGER || local < this.prevLocal)
      return -1;
    i++;
    let snapshot: boolean;
    if (
      buf[i] === 102 &&
      buf[i + 1] === 97 &&
      buf[i + 2] === 108 &&
      buf[i + 3] === 115 &&
      buf[i + 4] === 101
    ) {
      snapshot = false;
      i += 5;
    } else if (buf[i] === 116 && buf[i + 1] === 114 && buf[i + 2] === 117 && buf[i + 3] === 101) {
      snapshot = true;
      i += 4;
    } else return -1;
    if (buf[i] !== 44) return -1;
    i++;
    let bid: boolean;
    if (buf[i] === 98 && buf[i + 1] === 105 && buf[i + 2] === 100) bid = true;
    else if (buf[i] === 97 && buf[i + 1] === 115 && buf[i + 2] === 107) bid = false;
    else return -1;
    if (buf[i + 3] !== 44) return -1;
    const p0 = i + 4;
    const price = plain(buf, p0);
    const p1 = plainEnd;
    if (!(price > 0) || buf[p1] !== 44) return -1;
    const amount = plain(buf, p1 + 1);
    const end = plainEnd;
    const nl = buf[end] === 13 ? end + 1 : end;
    if (!(amount >= 0) || buf[nl] !== 10) return -1;
    this.prevLocal = local;
    this.set(line, ts, local, snapshot, bid, price, amount, buf, p0, end);
    return nl;
  }

  /** Any row, field by field: false (and the fault reported) when it is not a good row. */
  private careful(a: number, nl: number, line: number): boolean {
    const buf = this.lines.buf;
    const commas = this.commas;
    let n = 0;
    for (let i = a; i < nl; i++) if (buf[i] === 44 && n < 8) commas[n++] = i;
    const end = nl > a && buf[nl - 1] === 13 ? nl - 1 : nl;
    if (end === a) {
      this.rows--;
      return false;
    }
    if (n !== 7) {
      this.bad('malformed', line, `expected 8 fields, got ${n === 8 ? 'more' : n + 1}`);
      return false;
    }
    if (commas[0] === a || commas[1] === commas[0]! + 1) {
      this.bad('malformed', line, 'exchange and symbol must not be empty');
      return false;
    }
    const [, c2, c3, c4, c5, c6, c7] = commas as unknown as number[];
    const ts = integerAt(buf, c2! + 1, c3!);
    const local = integerAt(buf, c3! + 1, c4!);
    if (ts < 0 || local < 0) {
      this.bad('malformed', line, 'timestamp and local_timestamp must be microseconds since the epoch');
      return false;
    }
    const snap = flag(buf, c4! + 1, c5!);
    const side = sideOf(buf, c5! + 1, c6!);
    if (snap < 0 || side < 0) {
      this.bad('malformed', line, snap < 0 ? 'is_snapshot must be true or false' : 'side must be bid or ask');
      return false;
    }
    const price = decimalAt(buf, c6! + 1, c7!);
    const priceText = lastDecimal.jsonText;
    const amount = decimalAt(buf, c7! + 1, end);
    const amountText = lastDecimal.jsonText;
    if (!this.numbersOk(buf, price, c6! + 1, c7!, amount, end, line)) return false;
    if (!this.inOrder(local, line)) return false;
    this.line = line;
    this.keyBook = this.bookAt(buf, a, c2!);
    // Copied as it stands only when both numbers are JSON numbers already.
    const from = priceText && amountText ? c6! + 1 : -1;
    this.set(line, ts, local, snap === 1, side === 1, price, amount, buf, from, end);
    return true;
  }

  private set(
    line: number,
    ts: number,
    local: number,
    snapshot: boolean,
    bid: boolean,
    price: number,
    amount: number,
    buf: Uint8Array,
    levelFrom: number,
    levelTo: number,
  ): void {
    this.book = this.keyBook;
    this.tsUs = ts === local ? -1 : ts;
    this.localUs = local;
    this.line = line;
    this.snapshot = snapshot;
    this.bid = bid;
    this.price = price;
    this.amount = amount;
    this.buf = buf;
    this.levelFrom = levelFrom;
    this.levelTo = levelTo;
  }

  private numbersOk(
    buf: Uint8Array,
    price: number,
    pa: number,
    pb: number,
    amount: number,
    end: number,
    line: number,
  ): boolean {
    if (price > 0 && price < Infinity && amount >= 0 && amount < Infinity) return true;
    const pf = numberFault(price, latin1(buf, pa, pb), true);
    const af = pf === null ? numberFault(amount, latin1(buf, pb + 1, end), false) : null;
    if (pf === null && af === null) return true;
    const text = pf !== null ? latin1(buf, pa, pb) : latin1(buf, pb + 1, end);
    const what = pf !== null ? 'price' : 'amount';
    const rule = pf !== null ? 'a finite number > 0' : 'a finite number >= 0';
    this.bad((pf ?? af)!, line, `${what} '${text}' must be ${rule}`);
    return false;
  }

  private bookAt(buf: Uint8Array, a: number, c2: number): BookState | null {
    const key = this.key;
    const len = c2 + 1 - a;
    if (len === key.length) {
      let same = true;
      for (let k = 0; k < len; k++)
        if (key[k] !== buf[a + k]) {
          same = false;
          break;
        }
      if (same) return this.keyBook;
    }
    const comma = buf.indexOf(44, a);
    const exchange = utf8(buf, a, comma);
    const symbol = utf8(buf, comma + 1, c2);
    this.key = Buffer.from(buf.subarray(a, c2 + 1));
    this.keyBook = this.ctx.books.book(exchange, symbol, 'incremental_book_L2', this);
    return this.keyBook;
  }
}

/** Where the last `plain` number ended (the byte after it). */
let plainEnd = 0;

/**
 * A plain decimal (digits, at most one point, a JSON number as it stands) starting at `a`, read
 * up to the first other byte (its index left in `plainEnd`); NaN when the text there is anything
 * else, or too long for the exact fast path (see decimalAt).
 */
function plain(buf: Uint8Array, a: number): number {
  let m = 0;
  let dot = -1;
  let i = a;
  for (; ; i++) {
    const c = buf[i]!;
    if (c >= 48 && c <= 57) m = m * 10 + (c - 48);
    else if (c === 46 && dot < 0) dot = i;
    else break;
  }
  plainEnd = i;
  const digits = i - a - (dot >= 0 ? 1 : 0);
  if (digits === 0 || digits > 15 || dot === a || dot === i - 1) return NaN;
  if (buf[a] === 48 && i - a > 1 && (dot < 0 || dot > a + 1)) return NaN;
  return dot < 0 ? m : m / POW10[i - dot - 1]!;
}

/** 1 for `true`, 0 for `false`, -1 for anything else. */
function flag(buf: Uint8Array, a: number, b: number): number {
  if (b - a === 4 && buf[a] === 116 && buf[a + 1] === 114 && buf[a + 2] === 117 && buf[a + 3] === 101)
    return 1;
  if (
    b - a === 5 &&
    buf[a] === 102 &&
    buf[a + 1] === 97 &&
    buf[a + 2] === 108 &&
    buf[a + 3] === 115 &&
    buf[a + 4] === 101
  )
    return 0;
  return -1;
}

/** 1 for `bid`, 0 for `ask`, -1 for anything else. */
function sideOf(buf: Uint8Array, a: number, b: number): number {
  if (b - a !== 3) return -1;
  if (buf[a] === 98 && buf[a + 1] === 105 && buf[a + 2] === 100) return 1;
  if (buf[a] === 97 && buf[a + 1] === 115 && buf[a + 2] === 107) return 0;
  return -1;
}
