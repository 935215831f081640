import { errorMessage } from '@app/retry';
import type { BookState } from './book-state';
import type { LineReader } from './line-reader';
import type { Problems, ProblemKind } from './problems';

/** Where an input finds the book of an (exchange, symbol): null to leave its rows out. */
export interface BookLookup {
  book(exchange: string, symbol: string, source: string, input: Input): BookState | null;
}

export interface InputContext {
  readonly problems: Problems;
  readonly books: BookLookup;
}

/** Receives each row an input delivers (the fold, tardis-fold.ts). */
export interface RowSink {
  l2Row(input: Input & L2Fields): void;
  snapshotRow(input: Input & SnapshotFields): void;
  message(input: Input & MessageFields): void;
}

/** The fields of the current incremental_book_L2 row. */
export interface L2Fields {
  readonly book: BookState | null;
  readonly tsUs: number;
  readonly snapshot: boolean;
  readonly bid: boolean;
  readonly price: number;
  readonly amount: number;
  /** Where the row's `price,amount` text is, when it can be copied into the JSON as it is. */
  readonly levelFrom: number;
  readonly levelTo: number;
  readonly buf: Uint8Array;
}

/** The current book_snapshot_N row: levels best first. */
export interface SnapshotFields {
  readonly book: BookState | null;
  readonly tsUs: number;
  readonly bidCount: number;
  readonly askCount: number;
  readonly levels: Float64Array;
  /** Offsets in `levels` of the bids' and the asks' [price, amount] pairs. */
  readonly bidsAt: number;
  readonly asksAt: number;
}

/** The current normalized message (book_change or book_snapshot). */
export interface MessageFields {
  readonly book: BookState | null;
  readonly tsUs: number;
  readonly snapshot: boolean;
  readonly bids: readonly { readonly price: number; readonly amount: number }[];
  readonly asks: readonly { readonly price: number; readonly amount: number }[];
}

/**
 * One input file read row by row: `next()` moves to the next good row of the chunk in hand (bad
 * rows are reported and passed over) and says false when the chunk is used up; `advance()` loads
 * chunks until a row is found or the file ends. `localUs` and `line` describe the current row.
 */
export abstract class Input {
  localUs = 0;
  line = 0;
  done = false;
  /** Rows (or messages) read, good or bad. */
  rows = 0;
  protected prevLocal = -1;

  constructor(
    readonly index: number,
    readonly name: string,
    /** Positioned after the header (CSV) or at the first line (JSON Lines). */
    readonly lines: LineReader,
    protected readonly ctx: InputContext,
  ) {}

  abstract next(): boolean;
  abstract deliver(sink: RowSink): void;

  async advance(): Promise<boolean> {
    while (!this.next()) {
      let more: boolean;
      try {
        more = await this.lines.fill();
      } catch (e) {
        // A truncated or damaged gzip file (an interrupted download): its rows so far stand.
        const why = errorMessage(e);
        this.bad('malformed', this.lines.line, `the file cannot be read past this line (${why})`);
        more = false;
      }
      if (!more) {
        this.done = true;
        return false;
      }
    }
    return true;
  }

  /** Stops reading (the file is closed). */
  close(): Promise<void> {
    return this.lines.close();
  }

  protected bad(kind: ProblemKind, line: number, detail: string): void {
    this.ctx.problems.add(kind, this.name, line, detail);
  }

  /** Refuses a row stamped before the previous one: the merge needs every file in time order. */
  protected inOrder(localUs: number, line: number): boolean {
    if (localUs >= this.prevLocal) {
      this.prevLocal = localUs;
      return true;
    }
    this.bad(
      'out_of_order',
      line,
      `local timestamp ${localUs} is before the previous row's ${this.prevLocal} (a file must be in local time order)`,
    );
    return false;
  }
}

/** An input of incremental_book_L2 rows, read here or by a thread: the current row's fields. */
export abstract class L2Source extends Input implements L2Fields {
  book: BookState | null = null;
  tsUs = 0;
  snapshot = false;
  bid = false;
  price = 0;
  amount = 0;
  levelFrom = -1;
  levelTo = -1;
  buf: Uint8Array = new Uint8Array(0);
}
