import type { BookView } from './order-book';
import type { BookSideView } from './book-side';

/**
 * A 64-bit FNV-1a hash (as 16 hex chars) of a book's sync state, sequence and every level's
 * exact bits: equal hashes mean identical books, byte for byte.
 */
export function bookHash(book: BookView): string {
  const h = { hi: 0xcbf29ce4, lo: 0x84222325 };
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const mixNumber = (n: number): void => {
    f[0] = n;
    mix(h, u[0]!);
    mix(h, u[1]!);
  };
  mixNumber(book.inSync ? 1 : 0);
  mixNumber(book.sequence);
  mixNumber(book.receivedAt);
  const side = (s: BookSideView): void => {
    mixNumber(s.count);
    for (let i = 0; i < s.count; i++) {
      mixNumber(s.price(i));
      mixNumber(s.amount(i));
    }
  };
  side(book.bids);
  side(book.asks);
  return (h.hi >>> 0).toString(16).padStart(8, '0') + (h.lo >>> 0).toString(16).padStart(8, '0');
}

/** FNV-1a 64-bit step over one 32-bit word, byte by byte, in two 32-bit halves. */
function mix(h: { hi: number; lo: number }, word: number): void {
  for (let b = 0; b < 4; b++) {
    h.lo ^= (word >>> (b * 8)) & 0xff;
    // multiply by the 64-bit FNV prime 0x100000001b3 = 2^40 + 0x1b3
    const lo = h.lo;
    const hi = h.hi;
    const loMul = lo * 0x1b3;
    const newLo = loMul >>> 0;
    const carry = Math.floor(loMul / 0x100000000);
    h.hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    h.lo = newLo;
  }
}
