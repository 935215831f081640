import type { BookState } from './book-state';
import type { InputContext, RowSink, SnapshotFields } from './input';
import { Input } from './input';
import type { LineReader } from './line-reader';
import { decimalAt, integerAt, latin1, numberFault, utf8 } from './numbers';

/**
 * The depth N of a book_snapshot_N header (`exchange,symbol,timestamp,local_timestamp,` then
 * `asks[i].price,asks[i].amount,bids[i].price,bids[i].amount` for i = 0..N-1), or null.
 */
export function snapshotDepth(header: string): number | null {
  const f = header.split(',');
  if (f.length < 8 || (f.length - 4) % 4 !== 0) return null;
  if (f.slice(0, 4).join(',') !== 'exchange,symbol,timestamp,local_timestamp') return null;
  const n = (f.length - 4) / 4;
  for (let i = 0; i < n; i++) {
    const want = [`asks[${i}].price`, `asks[${i}].amount`, `bids[${i}].price`, `bids[${i}].amount`];
    for (let k = 0; k < 4; k++) if (f[4 + 4 * i + k] !== want[k]) return null;
  }
  return n;
}

/** A book_snapshot_N file: each row the top N levels of both sides, a whole snapshot. */
export class SnapshotInput extends Input implements SnapshotFields {
  book: BookState | null = null;
  tsUs = 0;
  bidCount = 0;
  askCount = 0;
  readonly levels: Float64Array;
  readonly bidsAt = 0;
  readonly asksAt: number;
  private readonly cuts: Int32Array;
  private readonly source: string;
  private lastKey = '';

  constructor(index: number, name: string, lines: LineReader, ctx: InputContext, depth: number) {
    super(index, name, lines, ctx);
    this.levels = new Float64Array(4 * depth);
    this.asksAt = 2 * depth;
    this.cuts = new Int32Array(4 + 4 * depth + 1);
    this.source = `book_snapshot_${depth}`;
  }

  deliver(sink: RowSink): void {
    sink.snapshotRow(this);
  }

  next(): boolean {
    const r = this.lines;
    const buf = r.buf;
    const fields = this.cuts.length;
    while (r.pos < r.end) {
      const a = r.pos;
      const cuts = this.cuts;
      let n = 0;
      let i = a;
      cuts[n++] = a - 1;
      for (let c = buf[i]; c !== 10; c = buf[++i]) if (c === 44 && n < fields) cuts[n++] = i;
      const line = r.line;
      this.rows++;
      r.skip(i);
      const end = i > a && buf[i - 1] === 13 ? i - 1 : i;
      if (end === a) continue;
      if (n !== fields - 1) {
        this.bad('malformed', line, `expected ${fields - 1} fields`);
        continue;
      }
      cuts[n] = end;
      if (this.read(buf, line)) return true;
    }
    return false;
  }

  private read(buf: Uint8Array, line: number): boolean {
    const cuts = this.cuts;
    const ts = integerAt(buf, cuts[2]! + 1, cuts[3]!);
    const local = integerAt(buf, cuts[3]! + 1, cuts[4]!);
    if (ts < 0 || local < 0) {
      this.bad('malformed', line, 'timestamp and local_timestamp must be microseconds since the epoch');
      return false;
    }
    let bids = 0;
    let asks = 0;
    const depth = this.asksAt / 2;
    for (let k = 0; k < depth; k++) {
      // Columns per level: asks[k].price, asks[k].amount, bids[k].price, bids[k].amount.
      for (const isAsk of [true, false]) {
        const f = 4 + 4 * k + (isAsk ? 0 : 2);
        const pa = cuts[f]! + 1;
        const pb = cuts[f + 1]!;
        const ab = cuts[f + 2]!;
        if (pa === pb && pb + 1 === ab) continue; // no level this deep
        const price = decimalAt(buf, pa, pb);
        const amount = decimalAt(buf, pb + 1, ab);
        const pf = numberFault(price, latin1(buf, pa, pb), true);
        const af = numberFault(amount, latin1(buf, pb + 1, ab), false);
        if (pf !== null || af !== null || amount === 0) {
          const side = isAsk ? 'asks' : 'bids';
          const what = pf !== null ? `${side}[${k}].price` : `${side}[${k}].amount`;
          const text = pf !== null ? latin1(buf, pa, pb) : latin1(buf, pb + 1, ab);
          this.bad(pf ?? af ?? 'malformed', line, `${what} '${text}' must be a finite number > 0`);
          return false;
        }
        const at = isAsk ? this.asksAt + 2 * asks++ : 2 * bids++;
        this.levels[at] = price;
        this.levels[at + 1] = amount;
      }
    }
    if (!this.inOrder(local, line)) return false;
    const exchange = utf8(buf, cuts[0]! + 1, cuts[1]!);
    const symbol = utf8(buf, cuts[1]! + 1, cuts[2]!);
    if (exchange === '' || symbol === '') {
      this.bad('malformed', line, 'exchange and symbol must not be empty');
      return false;
    }
    this.line = line;
    const key = `${exchange},${symbol}`;
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.book = this.ctx.books.book(exchange, symbol, this.source, this);
    }
    this.tsUs = ts === local ? -1 : ts;
    this.localUs = local;
    this.bidCount = bids;
    this.askCount = asks;
    return true;
  }
}
