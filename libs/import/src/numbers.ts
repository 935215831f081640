/** Powers of ten that a double holds exactly (10^0 .. 10^22). */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** What a numeric field was, besides its value: read by the caller right after `decimalAt`. */
export const lastDecimal = {
  /**
   * The bytes are a JSON number as they stand (plain digits, no sign, no needless zero, no lone
   * point), so a writer may copy them: JSON.parse gives the same double as the value returned.
   */
  jsonText: false,
};

/**
 * The value of the decimal text `buf[a..b)`, exactly what `Number(text)` gives; NaN when it is not
 * a number. Plain decimals take Clinger's fast path (an integer mantissa below 2^53 divided by an
 * exact power of ten is one correctly rounded operation, so the result is the nearest double, as
 * Number's is); anything else (a sign, an exponent, 16 or more digits) goes through Number itself.
 */
export function decimalAt(buf: Uint8Array, a: number, b: number): number {
  lastDecimal.jsonText = false;
  if (a >= b) return NaN;
  let m = 0;
  let decimals = 0;
  let dot = -1;
  for (let i = a; i < b; i++) {
    const c = buf[i]!;
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      if (dot >= 0) decimals++;
    } else if (c === 46 && dot < 0) dot = i;
    else return slow(buf, a, b);
  }
  const digits = b - a - (dot >= 0 ? 1 : 0);
  if (digits === 0) return NaN;
  if (digits > 15 || decimals > 22) return slow(buf, a, b);
  // JSON forbids "01", ".5" and "5."; everything else here is a JSON number already.
  lastDecimal.jsonText =
    dot !== a && dot !== b - 1 && !(buf[a] === 48 && b - a > 1 && (dot < 0 || dot > a + 1));
  return decimals === 0 ? m : m / POW10[decimals]!;
}

function slow(buf: Uint8Array, a: number, b: number): number {
  const text = latin1(buf, a, b).trim();
  // Number('') is 0 and Number('0x10') 16: neither is a decimal number.
  if (text === '' || /^[+-]?0[xob]/i.test(text)) return NaN;
  return Number(text);
}

/** A non-negative integer of at most 16 digits (microsecond timestamps), or -1. */
export function integerAt(buf: Uint8Array, a: number, b: number): number {
  if (a >= b || b - a > 16) return -1;
  let v = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i]!;
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v <= Number.MAX_SAFE_INTEGER ? v : -1;
}

/** The bytes as text, one character per byte (the CSV fields read here are ASCII). */
export function latin1(buf: Uint8Array, a: number, b: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + a, b - a).toString('latin1');
}

/** The bytes as UTF-8 text (exchange and symbol names). */
export function utf8(buf: Uint8Array, a: number, b: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + a, b - a).toString('utf8');
}

/** Why a price or amount field is refused: the three kinds of bad number the import counts apart. */
export type NumberFault = 'malformed' | 'negative' | 'non_finite';

/**
 * The fault of a field's value, or null when it is acceptable: a price must be a finite number
 * > 0, an amount a finite number >= 0. `text` names what could not be parsed at all.
 */
export function numberFault(value: number, text: string, isPrice: boolean): NumberFault | null {
  if (Number.isNaN(value)) return /^\s*[+-]?(nan|inf(inity)?)\s*$/i.test(text) ? 'non_finite' : 'malformed';
  if (!Number.isFinite(value)) return 'non_finite';
  if (value < 0) return 'negative';
  if (isPrice && value === 0) return 'malformed';
  return null;
}
