import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BookState } from './book-state';
import { L2Source, type InputContext, type RowSink } from './input';
import {
  GIVE_BACK,
  KEY,
  ROW,
  STRIDE,
  type FromL2Thread,
  type L2ThreadData,
  type ToL2Thread,
} from './l2-batch';
import { L2_HEADER } from './l2-input';
import { LineReader } from './line-reader';
import { ImportUsageError, PROBLEM_KINDS } from './problems';

/** What opening a file on a thread found: its input, an empty file, or a file of another kind. */
export type Threaded = ThreadedL2Input | 'empty' | 'other';

/**
 * Opens an incremental_book_L2 file on a thread of its own (l2-thread.ts reads, inflates and
 * parses it there; this thread only folds its rows). 'other' for a file of another kind, which
 * the caller then reads itself; throws ImportUsageError for a file that cannot be read.
 */
export async function openThreaded(
  path: string,
  index: number,
  name: string,
  ctx: InputContext,
  onRead: (bytesRead: number) => void,
): Promise<Threaded> {
  const data: L2ThreadData = { path, index, name };
  // The thread parses without keeping anything: a small heap keeps the process's memory flat.
  const worker = new Worker(join(__dirname, 'l2-thread.js'), {
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
  });
  const input = new ThreadedL2Input(index, name, ctx, worker, onRead);
  const first = await input.head;
  if (first === L2_HEADER) return input;
  await input.close();
  return first === null ? 'empty' : 'other';
}

/**
 * An incremental_book_L2 file whose rows a thread has parsed: `next()` replays the thread's
 * events in file order (a row, a problem, another exchange and symbol) exactly where an L2Input
 * on this thread would meet them, so the merge, the fold and the problems see the same sequence.
 */
export class ThreadedL2Input extends L2Source {
  readonly head: Promise<string | null>;
  private keyBook: BookState | null = null;
  private events: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private strings: readonly string[] = [];
  private at = 0;
  private count = 0;
  private used = -1;
  private usedSlots: number[] = [];
  /** The views of each slot's shared memory, made once. */
  private readonly slotBytes: Uint8Array[] = [];
  private readonly slotEvents: Float64Array<ArrayBufferLike>[] = [];
  private readonly queue: FromL2Thread[] = [];
  private waiting: ((m: FromL2Thread) => void) | null = null;
  private failed: ((e: Error) => void) | null = null;
  private broken: Error | null = null;
  private ended = false;

  constructor(
    index: number,
    name: string,
    ctx: InputContext,
    private readonly worker: Worker,
    private readonly onRead: (bytesRead: number) => void,
  ) {
    super(index, name, new LineReader(none()), ctx);
    worker.on('message', (m: FromL2Thread) => {
      if (m.t === 'end') this.ended = true;
      const w = this.waiting;
      this.waiting = null;
      if (w !== null) w(m);
      else this.queue.push(m);
    });
    const fail = (e: Error): void => {
      this.broken ??= e;
      this.failed?.(e);
    };
    worker.on('error', fail);
    worker.on('exit', () => {
      if (!this.ended) fail(new Error(`${name}: its reading thread ended before the file did`));
    });
    this.head = this.receive().then((m) => {
      if (m.t === 'refused') throw new ImportUsageError(m.message);
      if (m.t !== 'head') throw new Error(`${name}: the reading thread sent '${m.t}' first`);
      return m.first;
    });
  }

  deliver(sink: RowSink): void {
    sink.l2Row(this);
  }

  next(): boolean {
    const ev = this.events;
    while (this.at < this.count) {
      const o = this.at++ * STRIDE;
      const kind = ev[o];
      const line = ev[o + 1]!;
      if (kind === ROW) {
        const flags = ev[o + 8]!;
        this.book = this.keyBook;
        this.line = line;
        this.tsUs = ev[o + 2]!;
        this.localUs = ev[o + 3]!;
        this.price = ev[o + 4]!;
        this.amount = ev[o + 5]!;
        this.levelFrom = ev[o + 6]!;
        this.levelTo = ev[o + 7]!;
        this.snapshot = (flags & 1) !== 0;
        this.bid = (flags & 2) !== 0;
        return true;
      }
      const s = ev[o + 3]!;
      if (kind === KEY) {
        this.line = line;
        const at = ev[o + 2]!;
        this.keyBook = this.ctx.books.book(
          this.strings[at]!,
          this.strings[at + 1]!,
          'incremental_book_L2',
          this,
        );
      } else this.bad(PROBLEM_KINDS[ev[o + 2]!]!, line, this.strings[s]!);
    }
    return false;
  }

  override async advance(): Promise<boolean> {
    while (!this.next()) {
      this.giveBack();
      const m = await this.receive();
      if (m.t === 'end') {
        this.rows = m.rows;
        this.done = true;
        return false;
      }
      if (m.t !== 'batch') throw new Error(`${this.name}: the reading thread sent '${m.t}' mid-file`);
      this.used = m.slot;
      if (m.bytes !== undefined) this.slotBytes[m.slot] = new Uint8Array(m.bytes);
      if (m.events !== undefined) this.slotEvents[m.slot] = new Float64Array(m.events);
      this.buf = this.slotBytes[m.slot]!;
      this.events = this.slotEvents[m.slot]!;
      this.strings = m.strings;
      this.at = 0;
      this.count = m.count;
      this.onRead(m.bytesRead);
    }
    return true;
  }

  override async close(): Promise<void> {
    this.ended = true;
    await this.worker.terminate();
  }

  /** The slot just used up goes back to the thread to be filled again (GIVE_BACK at a time, or before a wait). */
  private giveBack(): void {
    if (this.used >= 0) this.usedSlots.push(this.used);
    this.used = -1;
    if (this.usedSlots.length === 0 || (this.usedSlots.length < GIVE_BACK && this.queue.length > 0)) return;
    const m: ToL2Thread = { t: 'more', slots: this.usedSlots };
    this.usedSlots = [];
    this.worker.postMessage(m);
  }

  private receive(): Promise<FromL2Thread> {
    const m = this.queue.shift();
    if (m !== undefined) return Promise.resolve(m);
    if (this.broken !== null) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
    });
  }
}

/** An input with no lines: the thread has them. */
async function* none(): AsyncGenerator<Uint8Array> {}
