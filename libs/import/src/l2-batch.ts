import type { BookLookup, Input, L2Fields, RowSink } from './input';
import { PROBLEM_KINDS, Problems, type ProblemKind } from './problems';

/**
 * What an incremental_book_L2 file's thread (l2-thread.ts) hands the main thread: its rows already
 * parsed, in file order, with the problems and the changes of (exchange, symbol) between them, as
 * events of STRIDE numbers each, and the bytes the rows' `price,amount` text is copied from. Both
 * live in one of AHEAD slots of shared memory, which the main thread gives back once used: nothing
 * is copied or allocated per batch on the main thread.
 */
export interface L2Batch {
  readonly t: 'batch';
  readonly slot: number;
  readonly count: number;
  /** The slot's memory, sent when it is new (its first use, or grown). */
  readonly bytes?: SharedArrayBuffer;
  readonly events?: SharedArrayBuffer;
  /** Exchange and symbol of KEY events, details of PROBLEM events. */
  readonly strings: readonly string[];
  /** Bytes of the file itself read so far (for progress). */
  readonly bytesRead: number;
}

/** From the thread: its file's first line (null: empty), a file it cannot read, a batch, the end. */
export type FromL2Thread =
  | { readonly t: 'head'; readonly first: string | null }
  | { readonly t: 'refused'; readonly message: string }
  | L2Batch
  | { readonly t: 'end'; readonly rows: number };

/** To the thread: slots used up, to be filled again. */
export interface ToL2Thread {
  readonly t: 'more';
  readonly slots: readonly number[];
}

export interface L2ThreadData {
  readonly path: string;
  readonly index: number;
  readonly name: string;
}

/** Numbers per event: kind, line, then per kind (see BatchRecorder). */
export const STRIDE = 9;
/** A good row: kind, line, tsUs, localUs, price, amount, levelFrom, levelTo, flags (1 snapshot, 2 bid). */
export const ROW = 1;
/** The rows from here on are of another (exchange, symbol): kind, line, index of the exchange in strings. */
export const KEY = 2;
/** A bad row: kind, line, index in PROBLEM_KINDS, index of the detail in strings. */
export const PROBLEM = 3;

/** Batches a thread may send ahead of the main thread (memory: a few MB a file). */
export const AHEAD = 4;
/**
 * Used slots go back this many at a time (or when the main thread would wait): each message wakes
 * the thread, and on a busy machine a wake-up can cost the main thread its core for a moment.
 */
export const GIVE_BACK = 2;

/**
 * A batch is sent at the end of the chunk that fills it this far (chunks are about 1 MB of CSV, so
 * a batch is mostly one chunk); a slot starts with room for that, and grows for more.
 */
const FULL_BYTES = 1 << 19;
const FULL_EVENTS = 1 << 13;
const SLOT_BYTES = 3 << 19;
const SLOT_EVENTS = 20_000;

/** Problems written down where they are met, for the main thread to report (and count) in its turn. */
class RecordedProblems extends Problems {
  constructor(private readonly record: (kind: ProblemKind, line: number, detail: string) => void) {
    super(false, () => undefined);
  }

  override add(kind: ProblemKind, _file: string, line: number, detail: string): void {
    this.record(kind, line, detail);
  }
}

/**
 * The thread's side: an L2Input's rows, problems and book look-ups written down as events in the
 * order the input meets them, which is the order the main thread replays them in (so problems,
 * --strict's first one and the books' order stay those of a read on the main thread).
 */
export class BatchRecorder implements BookLookup, RowSink {
  readonly problems: Problems;
  private readonly slots: {
    bytes: Buffer<ArrayBufferLike>;
    events: Float64Array<ArrayBufferLike>;
    sent: boolean;
  }[] = [];
  private slot = -1;
  private bytes: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private bytesN = 0;
  private events: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private count = 0;
  private strings: string[] = [];
  private src: Uint8Array | null = null;
  private base = 0;

  constructor() {
    this.problems = new RecordedProblems((kind, line, detail) =>
      this.event(PROBLEM, line, PROBLEM_KINDS.indexOf(kind), this.strings.push(detail) - 1),
    );
  }

  get full(): boolean {
    return this.bytesN >= FULL_BYTES || this.count >= FULL_EVENTS;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** Writes the next batch into `slot` (free: the main thread is done with it). */
  use(slot: number): void {
    const s = (this.slots[slot] ??= {
      bytes: Buffer.from(new SharedArrayBuffer(SLOT_BYTES)),
      events: new Float64Array(new SharedArrayBuffer(SLOT_EVENTS * STRIDE * 8)),
      sent: false,
    });
    this.slot = slot;
    this.bytes = s.bytes;
    this.events = s.events;
    this.bytesN = 0;
    this.count = 0;
    this.strings = [];
    this.src = null;
  }

  /** The batch in the current slot, to send; `use` must be told the next slot before more is written. */
  take(bytesRead: number): L2Batch {
    const s = this.slots[this.slot]!;
    const fresh = !s.sent || s.bytes !== this.bytes || s.events !== this.events;
    s.bytes = this.bytes;
    s.events = this.events;
    s.sent = true;
    return {
      t: 'batch',
      slot: this.slot,
      count: this.count,
      ...(fresh
        ? { bytes: s.bytes.buffer as SharedArrayBuffer, events: s.events.buffer as SharedArrayBuffer }
        : {}),
      strings: this.strings,
      bytesRead,
    };
  }
  book(exchange: string, symbol: string, _source: string, input: Input): null {
    this.event(KEY, input.line, this.strings.push(exchange, symbol) - 2);
    return null;
  }

  l2Row(r: Input & L2Fields): void {
    let from = r.levelFrom;
    let to = r.levelTo;
    if (from >= 0) {
      // The rows of a chunk come one after another: its bytes are copied once, at its first row.
      if (r.buf !== this.src) this.copy(r.buf, r.lines.end);
      from += this.base;
      to += this.base;
    }
    // Written in place: this runs for every row.
    const o = this.nextEvent();
    const ev = this.events;
    ev[o] = ROW;
    ev[o + 1] = r.line;
    ev[o + 2] = r.tsUs;
    ev[o + 3] = r.localUs;
    ev[o + 4] = r.price;
    ev[o + 5] = r.amount;
    ev[o + 6] = from;
    ev[o + 7] = to;
    ev[o + 8] = (r.snapshot ? 1 : 0) | (r.bid ? 2 : 0);
  }

  snapshotRow(): void {
    throw new Error('only incremental_book_L2 files are read on a thread');
  }

  message(): void {
    throw new Error('only incremental_book_L2 files are read on a thread');
  }

  private copy(buf: Uint8Array, end: number): void {
    if (this.bytesN + end > this.bytes.length) {
      const grown = Buffer.from(new SharedArrayBuffer(Math.max(2 * this.bytes.length, this.bytesN + end)));
      this.bytes.copy(grown, 0, 0, this.bytesN);
      this.bytes = grown;
    }
    this.bytes.set(buf.subarray(0, end), this.bytesN);
    this.src = buf;
    this.base = this.bytesN;
    this.bytesN += end;
  }

  /** Where the next event goes (the array grown when full). */
  private nextEvent(): number {
    if ((this.count + 1) * STRIDE > this.events.length) {
      const grown = new Float64Array(new SharedArrayBuffer(16 * this.events.length));
      grown.set(this.events);
      this.events = grown;
    }
    return this.count++ * STRIDE;
  }

  /** A rare event (a problem, another book): kind, line and two numbers. */
  private event(kind: number, line: number, a: number, b = 0): void {
    const o = this.nextEvent();
    this.events[o] = kind;
    this.events[o + 1] = line;
    this.events[o + 2] = a;
    this.events[o + 3] = b;
  }
}
