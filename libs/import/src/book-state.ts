import { BookSide } from '@app/books';
import { ByteList, type RecordOut } from './record-out';

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

  /** Writes the gathered change as a change record. */
  writeChange(out: RecordOut, tsUs: number, localUs: number): void {
    this.sequence++;
    out.piece(this.head);
    out.piece(CHANGE_BIDS);
    out.append(this.bidText);
    out.piece(ASKS);
    out.append(this.askText);
    this.tail(out, tsUs, localUs);
  }

  private tail(out: RecordOut, tsUs: number, localUs: number): void {
    out.piece(SEQUENCE);
    out.int(this.sequence);
    out.piece(EXCHANGE_TIMESTAMP);
    if (tsUs < 0) out.piece(NULL);
    else out.int(Math.floor(tsUs / 1000));
    out.piece(RECEIVED_AT);
    out.int(Math.floor(localUs / 1000));
    out.byte(125);
    out.endRecord();
  }
}

const SNAPSHOT_BIDS = Buffer.from('true,"bids":[');
const CHANGE_BIDS = Buffer.from('false,"bids":[');
const ASKS = Buffer.from('],"asks":[');
const SEQUENCE = Buffer.from('],"sequence":');
const EXCHANGE_TIMESTAMP = Buffer.from(',"exchangeTimestamp":');
const NULL = Buffer.from('null');
const RECEIVED_AT = Buffer.from(',"receivedAt":');

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
