import { fromBase64, toBase64 } from './encoding';
import { isKeyName, type SigningKey, type VerifierKey } from './note-key';

/** One signature line of a note. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: number;
  /** The signature bytes after the 4-byte key id. */
  readonly signature: Buffer;
}

export type NoteFailure =
  | 'too_large' // over maxBytes, or more than maxSignatures lines
  | 'malformed' // not a C2SP signed note (encoding, control characters, layout, a bad line)
  | 'bad_signature' // a known key's signature does not verify: the whole note is refused
  | 'ambiguous_key' // two trusted keys share a name and key id
  | 'no_known_signature'; // well formed, but no trusted key signed it

export type OpenedNote =
  | {
      readonly ok: true;
      readonly text: string;
      readonly verified: NoteSignature[];
      readonly unverified: NoteSignature[];
    }
  | { readonly ok: false; readonly failure: NoteFailure; readonly detail: string };

export interface NoteLimits {
  readonly maxBytes: number;
  readonly maxSignatures: number;
}

/** Room for 100 signatures (Go's limit) of post-quantum size; the spec asks for at least 16. */
export const NOTE_LIMITS: NoteLimits = { maxBytes: 256 * 1024, maxSignatures: 100 };

const DASH = '\u2014 ';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f]/;
/** A string half of a surrogate pair: text that has no UTF-8 form. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Sign a note text (ending in a newline) with each key: the C2SP signed-note encoding. */
export function signNote(text: string, keys: readonly SigningKey[]): string {
  if (!text.endsWith('\n') || CONTROL.test(text))
    throw new RangeError('a note text ends in a newline, no controls');
  if (keys.length === 0) throw new RangeError('a note needs a signature');
  const message = Buffer.from(text, 'utf8');
  const lines = keys.map((key) => {
    if (!isKeyName(key.name)) throw new RangeError(`not a key name: ${key.name}`);
    const id = Buffer.alloc(4);
    id.writeUInt32BE(key.keyId);
    return `${DASH}${key.name} ${toBase64(Buffer.concat([id, key.sign(message)]))}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

/**
 * Parse a signed note and check each signature line whose (name, key id) is trusted. As the spec
 * says: unknown keys are listed, not checked; one bad signature from a trusted key refuses the
 * note; no good one from a trusted key refuses it too. Linear in the note's size.
 */
export function openNote(
  note: string | Uint8Array,
  trusted: readonly VerifierKey[],
  limits: NoteLimits = NOTE_LIMITS,
): OpenedNote {
  const bad = (failure: NoteFailure, detail: string): OpenedNote => ({ ok: false, failure, detail });
  const size = typeof note === 'string' ? Buffer.byteLength(note, 'utf8') : note.length;
  if (size > limits.maxBytes) return bad('too_large', `note over ${limits.maxBytes} bytes`);
  let msg: string;
  try {
    msg = typeof note === 'string' ? note : fatalUtf8.decode(note);
  } catch {
    return bad('malformed', 'not UTF-8');
  }
  if (LONE_SURROGATE.test(msg)) return bad('malformed', 'not UTF-8');
  if (CONTROL.test(msg)) return bad('malformed', 'a control character other than newline');
  const split = msg.lastIndexOf('\n\n');
  if (split < 0) return bad('malformed', 'no blank line before the signatures');
  const text = msg.slice(0, split + 1);
  const block = msg.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n'))
    return bad('malformed', 'signature block must end in a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > limits.maxSignatures)
    return bad('too_large', `more than ${limits.maxSignatures} signatures`);
  const message = Buffer.from(text, 'utf8');
  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const sig = parseLine(line);
    if (sig === null) return bad('malformed', `bad signature line: ${line.slice(0, 80)}`);
    const seenKey = `${sig.name}+${sig.keyId}`;
    const keys = trusted.filter((k) => k.name === sig.name && k.keyId === sig.keyId);
    if (keys.length > 1) return bad('ambiguous_key', `two trusted keys are ${seenKey}`);
    const key = keys[0];
    if (key === undefined) {
      if (
        !unverified.some(
          (u) => u.name === sig.name && u.keyId === sig.keyId && u.signature.equals(sig.signature),
        )
      )
        unverified.push(sig);
      continue;
    }
    if (seen.has(seenKey)) continue;
    seen.add(seenKey);
    if (!key.verify(message, sig.signature))
      return bad('bad_signature', `signature of ${sig.name} does not verify`);
    verified.push(sig);
  }
  if (verified.length === 0) return bad('no_known_signature', 'no trusted key signed this note');
  return { ok: true, text, verified, unverified };
}

function parseLine(line: string): NoteSignature | null {
  if (!line.startsWith(DASH)) return null;
  const rest = line.slice(DASH.length);
  const space = rest.indexOf(' ');
  if (space < 0) return null;
  const name = rest.slice(0, space);
  const raw = fromBase64(rest.slice(space + 1));
  if (!isKeyName(name) || raw === null || raw.length < 5) return null;
  return { name, keyId: raw.readUInt32BE(0), signature: raw.subarray(4) };
}
