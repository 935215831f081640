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
  /** The rest of a chunk whose first line completed a cut one. */
  private next: Buffer | null = null;
  private done = false;
  private readonly chunks: AsyncIterator<Uint8Array>;

  constructor(chunks: AsyncIterable<Uint8Array>) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }

  /**
   * Loads the next chunk of complete lines; false at the end of the input (nothing left). A line
   * cut by a chunk's end is completed on its own (the piece before, the piece after, joined): the
   * chunks themselves are never copied.
   */
  async fill(): Promise<boolean> {
    for (;;) {
      if (this.done) return false;
      let chunk: Buffer;
      if (this.next !== null) {
        chunk = this.next;
        this.next = null;
      } else {
        const got = await this.chunks.next();
        if (got.done === true) {
          this.done = true;
          // A last line without a newline is still a line.
          if (this.rest === null || this.rest.length === 0) return false;
          return this.load(Buffer.concat([this.rest, NEWLINE]), null);
        }
        chunk = Buffer.from(got.value.buffer, got.value.byteOffset, got.value.byteLength);
      }
      if (this.rest !== null) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          this.rest = Buffer.concat([this.rest, chunk]);
          continue;
        }
        const joined = Buffer.concat([this.rest, chunk.subarray(0, nl + 1)]);
        this.rest = null;
        return this.load(joined, nl + 1 < chunk.length ? chunk.subarray(nl + 1) : null);
      }
      const cut = chunk.lastIndexOf(10);
      if (cut < 0) {
        this.rest = Buffer.from(chunk);
        continue;
      }
      this.rest = cut + 1 < chunk.length ? Buffer.from(chunk.subarray(cut + 1)) : null;
      return this.load(chunk.subarray(0, cut + 1), null);
    }
  }

  private load(buf: Buffer, next: Buffer | null): boolean {
    this.buf = buf;
    this.pos = 0;
    this.end = buf.length;
    this.next = next;
    return true;
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
