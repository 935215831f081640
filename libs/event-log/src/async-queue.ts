/**
 * A bounded hand-off between a push-based client callback and an async iterator: `push` waits
 * while `limit` items are queued (backpressure), `fail` makes the reader throw. Any number of
 * pushes may wait at once: each is woken when room is made (they then race for it, the losers
 * wait again), and all of them on `end` or `fail`.
 */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private error: Error | null = null;
  private ended = false;
  private readerWake: (() => void) | null = null;
  private readonly writerWakes: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async push(item: T): Promise<void> {
    while (this.items.length >= this.limit && !this.ended && this.error === null) {
      await new Promise<void>((res) => this.writerWakes.push(res));
    }
    if (this.ended || this.error !== null) return;
    this.items.push(item);
    this.wakeReader();
  }

  fail(error: Error): void {
    this.error ??= error;
    this.wakeReader();
    this.wakeWriter();
  }

  end(): void {
    this.ended = true;
    this.wakeReader();
    this.wakeWriter();
  }

  /** The next item, or null once ended; throws the failure once queued items are taken. */
  async next(): Promise<T | null> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        this.wakeWriter();
        return item;
      }
      if (this.error !== null) throw this.error;
      if (this.ended) return null;
      await new Promise<void>((res) => (this.readerWake = res));
    }
  }

  private wakeReader(): void {
    const w = this.readerWake;
    this.readerWake = null;
    w?.();
  }

  private wakeWriter(): void {
    for (const w of this.writerWakes.splice(0)) w();
  }
}
