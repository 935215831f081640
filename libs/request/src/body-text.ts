/**
 * The text of a JSON request body (RFC 8259 8.1: JSON exchanged between systems is UTF-8): the
 * charset a Content-Type may name, and the bytes decoded strictly, the first bad byte named.
 */

/** Why a Content-Type's charset is not acceptable for a JSON body (a 415), or null. */
export function jsonCharsetProblem(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const lower = value.toLowerCase();
    if (lower !== 'utf-8' && lower !== 'utf8')
      return `Content-Type charset must be utf-8 (a JSON body is UTF-8), got '${value.slice(0, 32)}'`;
  }
  return null;
}

export type BodyText =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode `bytes` as UTF-8; invalid bytes are a 400 naming the first (not replaced silently). */
export function decodeUtf8Body(bytes: Uint8Array): BodyText {
  try {
    return { ok: true, text: STRICT.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      ok: false,
      error: `body is not valid UTF-8: byte ${at} (0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}) is not part of a valid sequence`,
    };
  }
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629), or bytes.length. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte: the length and the range of the next byte (no overlongs, no surrogates, <= U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return i;
}
