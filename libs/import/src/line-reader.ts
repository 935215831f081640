/**
 * Whole lines out of a stream of byte chunks, without decoding them: a parser reads the bytes of
 * `buf` from `pos` and moves `pos` past each line's newline. Memory is one chunk plus one partial
 * line, whatever the length of the input.
 */
export class LineReader {
  /** The current chunk: complete lines from `pos` up to `end` (just past the last newline). */
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  end = 0;
  /** Number (from 1) of the line that starts at `pos`. */
  line = 1;
  private rest: Buffer | null = null;
  private done = false;
  private readonly chunks: AsyncIterator<Uint8Array>;

  constructor(chunks: AsyncIterable<Uint8Array>) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }

  /** Loads the next chunk of complete lines; false at the end of the input (nothing left). */
  async fill(): Promise<boolean> {
    for (;;) {
      if (this.done) return false;
      const next = await this.chunks.next();
      let buf: Buffer;
      if (next.done === true) {
        this.done = true;
        // A last line without a newline is still a line.
        if (this.rest === null || this.rest.length === 0) return false;
        buf = Buffer.concat([this.rest, NEWLINE]);
        this.rest = null;
      } else {
        const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        buf = this.rest === null ? chunk : Buffer.concat([this.rest, chunk]);
      }
      const cut = buf.lastIndexOf(10);
      if (cut < 0) {
        this.rest = buf;
        continue;
      }
      this.rest = cut + 1 < buf.length ? Buffer.from(buf.subarray(cut + 1)) : null;
      this.buf = buf;
      this.pos = 0;
      this.end = cut + 1;
      return true;
    }
  }

  /** Stops reading (the source's streams are closed). */
  async close(): Promise<void> {
    this.done = true;
    await this.chunks.return?.();
  }

  /** Whether a complete line starts at `pos`. */
  get hasLine(): boolean {
    return this.pos < this.end;
  }

  /** Index of the newline ending the line at `pos`. */
  lineEnd(): number {
    return this.buf.indexOf(10, this.pos);
  }

  /** Moves past the line ending at `newline`. */
  skip(newline: number): void {
    this.pos = newline + 1;
    this.line++;
  }

  /** The line at `pos` as text (without its newline or a carriage return before it). */
  text(newline: number): string {
    const stop = newline > this.pos && this.buf[newline - 1] === 13 ? newline - 1 : newline;
    return this.buf.toString('utf8', this.pos, stop);
  }
}

const NEWLINE = Buffer.from('\n');
