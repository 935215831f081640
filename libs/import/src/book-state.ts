import { BookSide } from '@app/books';
import { ByteList, put, putInt, type RecordOut } from './record-out';

/**
 * One book of the output: its records' fixed start, its sequence, the book as its records leave
 * it (to tell a crossed book, and to write a snapshot sorted and whole), and the change being
 * gathered: the rows of one message, which share a local timestamp (the FAQ of tardis.dev's CSV
 * datasets: read a book only after all rows of a local_timestamp are applied).
 */
export class BookState {
  /** `{"v":1,"type":"book","exchangeId":...,"symbol":...,"snapshot":` */
  private readonly head: Buffer;
  sequence = 0;
  readonly bids = new BookSide(-1);
  readonly asks = new BookSide(1);
  /** A snapshot has been written: changes apply from here on. */
  started = false;
  crossed = false;

  /** The message being gathered (rows of one local timestamp, file and kind). */
  open = false;
  openLocal = 0;
  /** Exchange time of the message in microseconds, or -1 when the exchange gave none. */
  openTs = -1;
  openSnapshot = false;
  /** Written as a snapshot record (else as a change: a continuation of a snapshot is one too). */
  openAsSnapshot = false;
  openFile = -1;
  openLine = 0;
  readonly bidText = new ByteList(1024);
  readonly askText = new ByteList(1024);
  /** The kind and file of the last message written, to tell a snapshot that continues one. */
  lastSnapshot = false;
  lastFile = -1;

  /** The venue and market records are written (before the book's first record). */
  listed = false;

  constructor(
    readonly venue: string,
    readonly symbol: string,
    /** The dataset feeding this book (incremental_book_L2, book_snapshot_25, book_change, ...). */
    readonly source: string,
    /** The venue and market records' fields, but for their time (the book's first row's). */
    readonly listing: { readonly venue: object; readonly market: object },
  ) {
    this.head = Buffer.from(
      `{"v":1,"type":"book","exchangeId":${JSON.stringify(venue)},"symbol":${JSON.stringify(symbol)},"snapshot":`,
    );
  }

  /** Whether the best bid is at or above the best ask. */
  get isCrossed(): boolean {
    return this.bids.count > 0 && this.asks.count > 0 && this.bids.price(0) >= this.asks.price(0);
  }

  /** Writes the book as it stands as a snapshot record (sorted, zero levels gone). */
  writeSnapshot(out: RecordOut, tsUs: number, localUs: number): void {
    this.sequence++;
    out.piece(this.head);
    out.piece(SNAPSHOT_BIDS);
    side(out, this.bids);
    out.piece(ASKS);
    side(out, this.asks);
    this.tail(out, tsUs, localUs);
  }

  /** Writes the gathered change as a change record (one bounds check: one runs per message). */
  writeChange(out: RecordOut, tsUs: number, localUs: number): void {
    this.sequence++;
    const head = this.head;
    const bids = this.bidText;
    const asks = this.askText;
    out.ensure(head.length + bids.n + asks.n + CHANGE_FIXED);
    const t = out.buf;
    let n = put(t, out.n, head, head.length);
    n = put(t, n, CHANGE_BIDS, CHANGE_BIDS.length);
    n = put(t, n, bids.buf, bids.n);
    n = put(t, n, ASKS, ASKS.length);
    n = put(t, n, asks.buf, asks.n);
    out.n = this.tailAt(t, n, tsUs, localUs);
    out.endRecord();
  }

  private tail(out: RecordOut, tsUs: number, localUs: number): void {
    out.ensure(TAIL_MAX);
    out.n = this.tailAt(out.buf, out.n, tsUs, localUs);
    out.endRecord();
  }

  /** `],"sequence":...,"exchangeTimestamp":...,"receivedAt":...}` at `n` (room ensured). */
  private tailAt(t: Buffer, n: number, tsUs: number, localUs: number): number {
    n = put(t, n, SEQUENCE, SEQUENCE.length);
    n = putInt(t, n, this.sequence);
    n = put(t, n, EXCHANGE_TIMESTAMP, EXCHANGE_TIMESTAMP.length);
    n = tsUs < 0 ? put(t, n, NULL, NULL.length) : putInt(t, n, Math.floor(tsUs / 1000));
    n = put(t, n, RECEIVED_AT, RECEIVED_AT.length);
    n = putInt(t, n, Math.floor(localUs / 1000));
    t[n] = 125;
    return n + 1;
  }
}

const SNAPSHOT_BIDS = Buffer.from('true,"bids":[');
const CHANGE_BIDS = Buffer.from('false,"bids":[');
const ASKS = Buffer.from('],"asks":[');
const SEQUENCE = Buffer.from('],"sequence":');
const EXCHANGE_TIMESTAMP = Buffer.from(',"exchangeTimestamp":');
const NULL = Buffer.from('null');
const RECEIVED_AT = Buffer.from(',"receivedAt":');
/** The tail's longest: its pieces, three integers of up to 16 digits and the closing brace. */
const TAIL_MAX = SEQUENCE.length + EXCHANGE_TIMESTAMP.length + RECEIVED_AT.length + 3 * 16 + 1;
const CHANGE_FIXED = CHANGE_BIDS.length + ASKS.length + TAIL_MAX;

function side(out: RecordOut, s: BookSide): void {
  for (let i = 0; i < s.count; i++) {
    if (i > 0) out.byte(44);
    out.byte(91);
    out.num(s.price(i));
    out.byte(44);
    out.num(s.amount(i));
    out.byte(93);
  }
}

/** Appends one `[price,amount]` level to a change's side: the row's own text (a JSON number pair). */
export function addLevel(list: ByteList, src: Uint8Array, a: number, b: number): void {
  // One bounds check for the whole level: this runs for every row of a change.
  list.ensure(b - a + 3);
  const t = list.buf;
  let n = list.n;
  if (n > 0) t[n++] = 44;
  t[n++] = 91;
  for (let i = a; i < b; i++) t[n++] = src[i]!;
  t[n++] = 93;
  list.n = n;
}

/** Appends one `[price,amount]` level written from the numbers. */
export function addLevelNumbers(list: ByteList, price: number, amount: number): void {
  if (list.n > 0) list.byte(44);
  list.byte(91);
  list.num(price);
  list.byte(44);
  list.num(amount);
  list.byte(93);
}
