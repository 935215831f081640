/** Bytes of a growing piece of output (one side's levels of a change, or a whole record). */
export class ByteList {
  buf: Buffer;
  n = 0;

  constructor(capacity = 4096) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  ensure(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  /**
   * Appends `src[a..b)`: a plain loop for the dozen bytes of a level (a native copy costs more to
   * call than it saves), a native copy for longer runs.
   */
  bytes(src: Uint8Array, a: number, b: number): void {
    this.ensure(b - a);
    const t = this.buf;
    if (b - a > 64) {
      t.set(src.subarray(a, b), this.n);
      this.n += b - a;
      return;
    }
    let n = this.n;
    for (let i = a; i < b; i++) t[n++] = src[i]!;
    this.n = n;
  }

  byte(c: number): void {
    this.ensure(1);
    this.buf[this.n++] = c;
  }

  /** ASCII text (JSON punctuation, names already escaped, numbers). */
  ascii(s: string): void {
    this.ensure(s.length);
    this.n += this.buf.write(s, this.n, 'latin1');
  }

  /** A non-negative safe integer in decimal (see `putInt`). */
  int(v: number): void {
    this.ensure(16);
    this.n = putInt(this.buf, this.n, v);
  }

  /** A fixed piece of output, prepared once (Buffer.from). */
  piece(b: Buffer): void {
    this.ensure(b.length);
    this.n = put(this.buf, this.n, b, b.length);
  }

  /** A finite number as JSON writes it (String round-trips every double). */
  num(v: number): void {
    this.ascii(String(v));
  }

  /** Appends everything `other` holds. */
  append(other: ByteList): void {
    this.bytes(other.buf, 0, other.n);
  }
}

/**
 * Copies `src[0..len)` to `t` at `n` (room already ensured); returns the index after it. A plain
 * loop for the dozens of bytes most pieces have (a native copy costs more to call than it saves),
 * a native one for longer runs, without the subarray view when `src` is copied whole.
 */
export function put(t: Buffer, n: number, src: Uint8Array, len: number): number {
  if (len > 64) {
    t.set(len === src.length ? src : src.subarray(0, len), n);
    return n + len;
  }
  for (let i = 0; i < len; i++) t[n + i] = src[i]!;
  return n + len;
}

/**
 * Writes a non-negative safe integer at `n` in decimal (room for 16 digits ensured); returns the
 * index after it. Digit by digit in 32-bit integer arithmetic (eight low digits, then the rest):
 * String() and a copy cost more, and records carry three.
 */
export function putInt(t: Buffer, n: number, v: number): number {
  if (v < 1e8) return digits(t, n, v | 0);
  const hi = Math.floor(v / 1e8);
  const at = digits(t, n, hi);
  let lo = (v - hi * 1e8) | 0;
  for (let i = at + 7; i >= at; i--) {
    const q = (lo / 10) | 0;
    t[i] = 48 + lo - q * 10;
    lo = q;
  }
  return at + 8;
}

/** Writes 0 <= x < 2^31 at `n` in decimal; returns the index after it. */
function digits(t: Buffer, n: number, x: number): number {
  let len = 1;
  for (let p = 10; p <= x && len < 10; p *= 10) len++;
  for (let i = n + len - 1; i >= n; i--) {
    const q = (x / 10) | 0;
    t[i] = 48 + x - q * 10;
    x = q;
  }
  return n + len;
}

/**
 * The import's output: records as JSON Lines, buffered and handed to `sink` about a megabyte at a
 * time (the caller writes them to the temporary file, in the background). Counts what it wrote.
 */
export class RecordOut extends ByteList {
  records = 0;
  written = 0;

  /** Buffers the sink has given back, to fill again (no new 2 MB buffer per flush for the GC). */
  private readonly free: Buffer[] = [];

  constructor(
    /** Takes the bytes; calls `release` once it no longer needs them. */
    private readonly sink: (chunk: Buffer, release: () => void) => void,
    private readonly flushAt = 1 << 20,
  ) {
    super(2 * (1 << 20));
  }

  /** One complete record line (`text` has no newline) from a JSON text. */
  line(text: string): void {
    this.ensure(Buffer.byteLength(text) + 1);
    this.n += this.buf.write(text, this.n, 'utf8');
    this.endRecord();
  }

  /** Ends the record being written with its newline, and passes full buffers on. */
  endRecord(): void {
    this.byte(10);
    this.records++;
    if (this.n >= this.flushAt) this.flush();
  }

  /** Hands the bytes so far to the sink, which may keep them until it releases them. */
  flush(): void {
    if (this.n === 0) return;
    const full = this.buf;
    this.sink(full.subarray(0, this.n), () => this.free.push(full));
    this.written += this.n;
    this.buf = this.free.pop() ?? Buffer.allocUnsafe(full.length);
    this.n = 0;
  }
}
