const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX = /^[0-9a-f]{64}$/;
const B64URL = /^[A-Za-z0-9_-]{43}$/;

/** A SHA-256 as lowercase hex (64 characters) in unpadded base64url (43), as format v2 stores it. */
export function hexToBase64url(hex: string): string {
  if (!HEX.test(hex)) throw new RangeError('not a lowercase hex SHA-256');
  // Three bytes (six hex digits) make four characters; the last of the 32 bytes makes two more
  // with four zero bits (written for every journalled quote: no arrays, no parseInt).
  let out = '';
  for (let i = 0; i < 60; i += 6) {
    const n =
      (nibble(hex, i) << 20) |
      (nibble(hex, i + 1) << 16) |
      (nibble(hex, i + 2) << 12) |
      (nibble(hex, i + 3) << 8) |
      (nibble(hex, i + 4) << 4) |
      nibble(hex, i + 5);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const last = (nibble(hex, 60) << 12) | (nibble(hex, 61) << 8) | (nibble(hex, 62) << 4) | nibble(hex, 63);
  return out + ALPHABET[last >> 10]! + ALPHABET[(last >> 4) & 63]! + ALPHABET[(last << 2) & 63]!;
}

/** The value of the lowercase hex digit at `i` (checked by HEX already). */
function nibble(hex: string, i: number): number {
  const c = hex.charCodeAt(i);
  return c <= 57 ? c - 48 : c - 87;
}

/** The base64url form back to lowercase hex, or null when it is not 43 base64url characters of 32 bytes. */
export function base64urlToHex(text: string): string | null {
  if (!B64URL.test(text)) return null;
  let bits = 0;
  let value = 0;
  let hex = '';
  for (const ch of text) {
    value = (value << 6) | ALPHABET.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hex += ((value >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  // 43 characters carry 258 bits: the last 2 must be zero for the text to be canonical.
  return (value & ((1 << bits) - 1)) === 0 ? hex : null;
}
