import type { LeafTopic } from './tlog-entry';

/** A leaves entry's leaves packed: the hashes of leaves from, from + 1, ... in one buffer. */
export interface PackedLeaves {
  readonly type: 'tlog_leaves_packed';
  readonly from: number;
  readonly topics: LeafTopic[];
  readonly keys: string[];
  /** 32 bytes per leaf, in order. */
  readonly hashes: Buffer;
}

const HASH_BYTES = 32;
const TOPICS: readonly LeafTopic[] = ['quotes', 'stream', 'stream-ledger'];
/** Each topic as it opens a leaf: `["quotes","`. */
const OPENERS = TOPICS.map((t) => `["${t}","`);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Base64 digit values by char code, 255 for any other character. */
const DIGIT = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/**
 * A tlog leaves entry of `origin` read without JSON.parse, or null when the text is not in the
 * exact form encodeTlogEntry writes (keys without escapes, canonical base64): the caller then
 * parses it as JSON (parseTlogEntry), which accepts every spelling this does and refuses what it
 * must. A restart reads a million leaves this way with one small string (the key) per leaf
 * instead of an array, three strings and a buffer.
 */
export function scanLeavesEntry(text: string, origin: string): PackedLeaves | null {
  const head = `{"v":1,"type":"tlog_leaves","origin":${JSON.stringify(origin)},"from":`;
  if (!text.startsWith(head)) return null;
  let at = head.length;
  const fromEnd = text.indexOf(',', at);
  const fromText = fromEnd < 0 ? '' : text.slice(at, fromEnd);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(fromText)) return null;
  const from = Number(fromText);
  if (!Number.isSafeInteger(from)) return null;
  at = fromEnd;
  if (!text.startsWith(',"leaves":[', at)) return null;
  at += ',"leaves":['.length;
  const topics: LeafTopic[] = [];
  const keys: string[] = [];
  // A leaf is at least `["stream","","<44>"]` (53 characters): the buffer never outgrows the text.
  const hashes = Buffer.allocUnsafe(Math.ceil(text.length / 53) * HASH_BYTES);
  for (;;) {
    const t = OPENERS.findIndex((o) => text.startsWith(o, at));
    if (t < 0) return null;
    at += OPENERS[t]!.length;
    const keyEnd = text.indexOf('"', at);
    if (keyEnd < 0) return null;
    for (let i = at; i < keyEnd; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c === 0x5c) return null; // a control character (refused) or an escape
    }
    keys.push(text.slice(at, keyEnd));
    topics.push(TOPICS[t]!);
    at = keyEnd;
    if (!text.startsWith('","', at)) return null;
    at += 3;
    if (!decodeHash(text, at, hashes, (keys.length - 1) * HASH_BYTES)) return null;
    at += 44;
    if (!text.startsWith('"]', at)) return null;
    at += 2;
    if (text.charCodeAt(at) === 0x2c) {
      at++;
      continue;
    }
    if (at + 2 !== text.length || !text.endsWith(']}')) return null;
    return {
      type: 'tlog_leaves_packed',
      from,
      topics,
      keys,
      hashes: hashes.subarray(0, keys.length * HASH_BYTES),
    };
  }
}

/**
 * The 44 characters at `at` as canonical padded base64 of 32 bytes, written to `out` at `offset`;
 * false for anything else (a character outside the alphabet, or bits set after the last byte).
 */
function decodeHash(text: string, at: number, out: Buffer, offset: number): boolean {
  if (text.charCodeAt(at + 43) !== 0x3d) return false; // 32 bytes end in one '='
  let o = offset;
  for (let g = 0; g < 10; g++) {
    const i = at + g * 4;
    const a = digit(text, i);
    const b = digit(text, i + 1);
    const c = digit(text, i + 2);
    const d = digit(text, i + 3);
    if ((a | b | c | d) > 63) return false;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  const a = digit(text, at + 40);
  const b = digit(text, at + 41);
  const c = digit(text, at + 42);
  if ((a | b | c) > 63 || (c & 3) !== 0) return false;
  out[o++] = (a << 2) | (b >> 4);
  out[o] = ((b & 15) << 4) | (c >> 2);
  return true;
}

function digit(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? DIGIT[c]! : 255;
}
