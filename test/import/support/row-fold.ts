/** One incremental_book_L2 row as the tests hold it (a book key of their own choosing). */
export interface L2Row {
  readonly key: string;
  readonly file: number;
  readonly local: number;
  readonly snapshot: boolean;
  readonly bid: boolean;
  readonly price: number;
  readonly amount: number;
}

type Side = Map<number, number>;
interface Book {
  readonly bids: Side;
  readonly asks: Side;
  last: string;
  started: boolean;
}

/**
 * tardis.dev's reconstruction written apart from the import, row by row as tardis.dev's FAQ
 * states it: a snapshot row after a non-snapshot row (or the book's first row of a file) resets
 * the book, a change before the first snapshot is ignored, amount 0 removes the level.
 */
export class RowFold {
  private readonly books = new Map<string, Book>();

  apply(r: L2Row): void {
    let b = this.books.get(r.key);
    if (b === undefined)
      this.books.set(r.key, (b = { bids: new Map(), asks: new Map(), last: '', started: false }));
    const kind = `${r.snapshot}/${r.file}`;
    if (r.snapshot && b.last !== kind) {
      b.bids.clear();
      b.asks.clear();
      b.started = true;
    }
    b.last = kind;
    if (!b.started) return;
    const side = r.bid ? b.bids : b.asks;
    if (r.amount === 0) side.delete(r.price);
    else side.set(r.price, r.amount);
  }

  /** A normalized message: a snapshot resets the book, a change sets levels. */
  message(key: string, snapshot: boolean, bids: readonly Level[], asks: readonly Level[]): void {
    let b = this.books.get(key);
    if (b === undefined)
      this.books.set(key, (b = { bids: new Map(), asks: new Map(), last: '', started: false }));
    if (snapshot) {
      b.bids.clear();
      b.asks.clear();
      b.started = true;
    }
    if (!b.started) return;
    for (const [side, levels] of [
      [b.bids, bids],
      [b.asks, asks],
    ] as const)
      for (const l of levels) {
        if (l.amount === 0) side.delete(l.price);
        else side.set(l.price, l.amount);
      }
  }

  /** The book's levels best first ([bids, asks]), at most `depth` a side; undefined before its snapshot. */
  levels(key: string, depth = Infinity): [number, number][][] | undefined {
    const b = this.books.get(key);
    if (b === undefined || !b.started) return undefined;
    const sorted = (m: Side, dir: number): [number, number][] =>
      [...m].sort((x, y) => (x[0] - y[0]) * dir).slice(0, depth);
    return [sorted(b.bids, -1), sorted(b.asks, 1)];
  }
}

export interface Level {
  readonly price: number;
  readonly amount: number;
}
