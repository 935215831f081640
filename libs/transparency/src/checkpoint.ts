import { fromBase64, parseDecimal, toBase64 } from './encoding';
import { HASH_BYTES, type Hash } from './hash';
import type { SigningKey, VerifierKey } from './note-key';
import { openNote, signNote, type NoteFailure } from './note';
import { MAX_TREE_SIZE } from './tree-math';

/** A C2SP tlog-checkpoint: the log's origin, tree size and RFC 6962 root, plus opaque extension lines. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Hash;
  readonly extensions: readonly string[];
}

export type CheckpointFailure = NoteFailure | 'malformed_checkpoint' | 'wrong_origin';

export type OpenedCheckpoint =
  | { readonly ok: true; readonly checkpoint: Checkpoint; readonly note: string }
  | { readonly ok: false; readonly failure: CheckpointFailure; readonly detail: string };

/** The checkpoint's note text: origin, decimal size, base64 root, extension lines, each ending in a newline. */
export function checkpointText(cp: Checkpoint): string {
  if (cp.origin === '' || cp.origin.includes('\n')) throw new RangeError('origin is one non-empty line');
  if (!Number.isSafeInteger(cp.size) || cp.size < 0 || cp.size > MAX_TREE_SIZE)
    throw new RangeError('bad tree size');
  if (cp.root.length !== HASH_BYTES) throw new RangeError('root is 32 bytes');
  if (cp.extensions.some((e) => e === '' || e.includes('\n')))
    throw new RangeError('extension lines are non-empty lines');
  return [cp.origin, String(cp.size), toBase64(cp.root), ...cp.extensions].map((l) => `${l}\n`).join('');
}

/** A note text as a checkpoint, or null unless it has the exact layout (canonical size and root). */
export function parseCheckpointText(text: string): Checkpoint | null {
  if (!text.endsWith('\n')) return null;
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.some((l) => l === '')) return null;
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  const size = parseDecimal(sizeText);
  const root = fromBase64(rootText, HASH_BYTES);
  return size === null || root === null ? null : { origin, size, root, extensions };
}

/** The signed checkpoint note; the key's name is the origin (C2SP: it SHOULD match; here it must). */
export function signCheckpoint(cp: Checkpoint, key: SigningKey): string {
  if (key.name !== cp.origin)
    throw new RangeError(`key ${key.name} signs for another origin than ${cp.origin}`);
  return signNote(checkpointText(cp), [key]);
}

/**
 * Open a signed checkpoint of `origin`: signed by one of `keys` (those of that origin), with the
 * checkpoint layout, and the origin line equal to the expected one.
 */
export function openCheckpoint(
  note: string | Uint8Array,
  origin: string,
  keys: readonly VerifierKey[],
): OpenedCheckpoint {
  const opened = openNote(
    note,
    keys.filter((k) => k.name === origin),
  );
  if (!opened.ok) return opened;
  const checkpoint = parseCheckpointText(opened.text);
  if (checkpoint === null)
    return { ok: false, failure: 'malformed_checkpoint', detail: 'not origin, size, root lines' };
  if (checkpoint.origin !== origin)
    return {
      ok: false,
      failure: 'wrong_origin',
      detail: `checkpoint of ${checkpoint.origin}, not ${origin}`,
    };
  return { ok: true, checkpoint, note: typeof note === 'string' ? note : Buffer.from(note).toString('utf8') };
}

/**
 * What every checkpoint of this service promises, in its two extension lines `time <ms>` and
 * `merge-delay-ms <ms>`: the tree holds every record of the origin calculated at or before
 * time − mergeDelayMs. Signed with the tree, so a receipt older than that and absent from the tree
 * is the operator's own signed contradiction (docs/audit.md, "Merge delay").
 */
export interface CheckpointPromise {
  /** Epoch ms at which the checkpoint was signed. */
  readonly time: number;
  readonly mergeDelayMs: number;
}

/** The promise's extension lines, in their one order. */
export function promiseLines(p: CheckpointPromise): string[] {
  if (![p.time, p.mergeDelayMs].every((n) => Number.isSafeInteger(n) && n >= 0))
    throw new RangeError('time and merge delay are integers in [0, 2^53 - 1]');
  return [`time ${p.time}`, `merge-delay-ms ${p.mergeDelayMs}`];
}

/** The promise of a checkpoint, or null unless its extensions are exactly the two lines. */
export function readPromise(cp: Checkpoint): CheckpointPromise | null {
  if (cp.extensions.length !== 2) return null;
  const [t, d] = cp.extensions as [string, string];
  const time = t.startsWith('time ') ? parseDecimal(t.slice(5)) : null;
  const mergeDelayMs = d.startsWith('merge-delay-ms ') ? parseDecimal(d.slice(15)) : null;
  return time === null || mergeDelayMs === null ? null : { time, mergeDelayMs };
}

/** Whether a checkpoint's promise covers a quote calculated at `calculatedAt`. */
export function promiseCovers(p: CheckpointPromise, calculatedAt: number): boolean {
  return p.time - p.mergeDelayMs >= calculatedAt;
}
