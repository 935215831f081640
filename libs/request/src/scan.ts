/**
 * Linear scanners for the textual forms of the request (clarifications 9). Hand-written on
 * purpose: each looks at every character once, so no input can make them backtrack.
 */

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * A plain decimal number: optional sign, digits with an optional fraction (or a fraction alone),
 * optional exponent. No hex, no 'Infinity', no 'NaN', no separators, no spaces.
 */
export function isPlainDecimal(text: string): boolean {
  let i = 0;
  const n = text.length;
  if (i < n && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++;
  let digits = 0;
  while (i < n && isDigit(text.charCodeAt(i))) {
    i++;
    digits++;
  }
  if (i < n && text.charCodeAt(i) === 46) {
    i++;
    while (i < n && isDigit(text.charCodeAt(i))) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
    i++;
    if (i < n && (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45)) i++;
    const start = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  return i === n;
}

/** One or more ASCII digits and nothing else. */
export function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/** An asset code after trim and upper-case (clarifications 9). */
export const ASSET = /^[A-Z0-9._-]{1,32}$/;
/** What a client may write for an asset before it is upper-cased. */
export const ASSET_ANY_CASE = /^[A-Za-z0-9._-]{1,32}$/;
/** A venue id as it appears in `exchanges` and in balances prefixes. */
export const VENUE = /^[A-Za-z0-9_-]{1,64}$/;

/** Comma-separated items, each trimmed; an all-blank text is the empty list. */
export function commaList(text: string): string[] {
  return text.trim() === '' ? [] : text.split(',').map((s) => s.trim());
}

/**
 * Upper-case the ASCII letters only: the asset alphabet is ASCII, and String.toUpperCase would turn
 * 'ß' into 'SS', a text that must not pass as an asset. Others are left for the rule to refuse.
 */
export function asciiUpper(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) return text.replace(/[a-z]+/g, (s) => s.toUpperCase());
  }
  return text;
}
