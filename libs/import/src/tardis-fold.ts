import { addLevel, addLevelNumbers, type BookState } from './book-state';
import type { Input, L2Fields, MessageFields, RowSink, SnapshotFields } from './input';
import type { Problems } from './problems';
import type { RecordOut } from './record-out';

/**
 * Turns rows into book records, one record per message, with tardis.dev's rules (docs/replay.md
 * "Importing tardis.dev data"):
 * - incremental_book_L2: the rows of a book that share a local timestamp, a file and is_snapshot
 *   are one message. A run of snapshot rows replaces the book: its first message is a snapshot
 *   record, a later message of the same run (a snapshot spread over several timestamps) a change
 *   adding levels to it. A change before the book's first snapshot is left out (counted).
 * - book_snapshot_N rows and book_snapshot messages are snapshots; book_change messages are
 *   snapshots when isSnapshot, else changes.
 * Messages are written when complete: a row with a later local time closes every open one, in
 * the order they were opened, so the output stays in time order across books and files.
 */
export class TardisFold implements RowSink {
  private pending: BookState[] = [];
  private pendingLocal = -1;
  /** Changes left out because their book had no snapshot yet. */
  beforeSnapshot = 0;
  /** Rows or messages of books that are not imported (unmapped, or fed by another dataset). */
  leftOut = 0;
  private names: string[] = [];
  /** Venues whose venue record is written. */
  readonly venues = new Set<string>();

  constructor(
    private readonly out: RecordOut,
    private readonly problems: Problems,
    /** True once the import cannot succeed: rows are still read (to name every unmapped symbol) but not folded. */
    private readonly stopped: () => boolean,
  ) {}

  l2Row(r: Input & L2Fields): void {
    const book = this.enter(r);
    if (book === null) return;
    if (book.open && (book.openSnapshot !== r.snapshot || book.openFile !== r.index)) this.flush(book);
    if (!book.open) {
      // A snapshot message continues a run when the book's last message was one of the same file.
      const asSnapshot = r.snapshot && !(book.started && book.lastSnapshot && book.lastFile === r.index);
      if (!r.snapshot && !book.started) {
        this.beforeSnapshot++;
        return;
      }
      if (asSnapshot) {
        book.bids.clear();
        book.asks.clear();
      }
      book.open = true;
      book.openLocal = r.localUs;
      book.openSnapshot = r.snapshot;
      book.openAsSnapshot = asSnapshot;
      book.openFile = r.index;
      book.bidText.n = 0;
      book.askText.n = 0;
      this.names[r.index] = r.name;
      this.pending.push(book);
    }
    (r.bid ? book.bids : book.asks).set(r.price, r.amount);
    if (!book.openAsSnapshot) {
      const list = r.bid ? book.bidText : book.askText;
      if (r.levelFrom >= 0) addLevel(list, r.buf, r.levelFrom, r.levelTo);
      else addLevelNumbers(list, r.price, r.amount);
    }
    book.openTs = r.tsUs;
    book.openLine = r.line;
  }

  snapshotRow(r: Input & SnapshotFields): void {
    const book = this.enter(r);
    if (book === null) return;
    book.bids.clear();
    book.asks.clear();
    const lv = r.levels;
    for (let i = 0; i < r.bidCount; i++) book.bids.set(lv[r.bidsAt + 2 * i]!, lv[r.bidsAt + 2 * i + 1]!);
    for (let i = 0; i < r.askCount; i++) book.asks.set(lv[r.asksAt + 2 * i]!, lv[r.asksAt + 2 * i + 1]!);
    book.writeSnapshot(this.out, r.tsUs, r.localUs);
    book.started = true;
    this.checkCrossed(book, r.name, r.line);
  }

  message(r: Input & MessageFields): void {
    const book = r.book;
    if (book === null || this.stopped()) {
      this.leftOut++;
      return;
    }
    this.closeBefore(r.localUs);
    if (!book.listed) this.list(book, r.localUs);
    if (!r.snapshot && !book.started) {
      this.beforeSnapshot++;
      return;
    }
    if (r.snapshot) {
      book.bids.clear();
      book.asks.clear();
    }
    book.bidText.n = 0;
    book.askText.n = 0;
    for (const l of r.bids) {
      book.bids.set(l.price, l.amount);
      if (!r.snapshot) addLevelNumbers(book.bidText, l.price, l.amount);
    }
    for (const l of r.asks) {
      book.asks.set(l.price, l.amount);
      if (!r.snapshot) addLevelNumbers(book.askText, l.price, l.amount);
    }
    if (r.snapshot) {
      book.writeSnapshot(this.out, r.tsUs, r.localUs);
      book.started = true;
    } else book.writeChange(this.out, r.tsUs, r.localUs);
    this.checkCrossed(book, r.name, r.line);
  }

  /** Writes every message still open. */
  finish(): void {
    this.closeBefore(Infinity);
  }

  /** The venue record (the venue's first time) and the market record, before the book's first record. */
  /** A row's book, its earlier messages closed and the book listed; null for a row left out. */
  private enter(r: Input & { readonly book: BookState | null }): BookState | null {
    const book = r.book;
    if (book === null || this.stopped()) {
      this.leftOut++;
      return null;
    }
    this.closeBefore(r.localUs);
    if (!book.listed) this.list(book, r.localUs);
    return book;
  }

  private list(book: BookState, localUs: number): void {
    book.listed = true;
    const receivedAt = Math.floor(localUs / 1000);
    const exchangeId = book.venue;
    if (!this.venues.has(exchangeId)) {
      this.venues.add(exchangeId);
      this.out.line(JSON.stringify({ v: 1, type: 'venue', exchangeId, ...book.listing.venue, receivedAt }));
    }
    this.out.line(JSON.stringify({ v: 1, type: 'market', exchangeId, ...book.listing.market, receivedAt }));
  }

  /** A row at `localUs` completes every message opened at an earlier local time. */
  private closeBefore(localUs: number): void {
    if (localUs === this.pendingLocal) return;
    const open = this.pending;
    for (let i = 0; i < open.length; i++) if (open[i]!.open) this.flush(open[i]!);
    open.length = 0;
    this.pendingLocal = localUs;
  }

  private flush(book: BookState): void {
    book.open = false;
    if (book.openAsSnapshot) {
      book.writeSnapshot(this.out, book.openTs, book.openLocal);
      book.started = true;
    } else book.writeChange(this.out, book.openTs, book.openLocal);
    book.lastSnapshot = book.openSnapshot;
    book.lastFile = book.openFile;
    this.checkCrossed(book, this.names[book.openFile]!, book.openLine);
  }

  /** Reports the change that crosses a book (once, until it uncrosses). */
  private checkCrossed(book: BookState, file: string, line: number): void {
    const crossed = book.isCrossed;
    if (crossed && !book.crossed)
      this.problems.add(
        'crossed',
        file,
        line,
        `${book.venue} ${book.symbol}: best bid ${book.bids.price(0)} >= best ask ${book.asks.price(0)} after this change`,
      );
    book.crossed = crossed;
  }
}
