import type { AppendEntry } from './event-log';
import { LogError } from './log-error';

/**
 * The largest entry either log accepts: key plus value, UTF-8 bytes. Kafka's default
 * `message.max.bytes` is 1,048,588 bytes per record batch; 1,000,000 leaves room for the batch
 * and record headers, so an entry the embedded log takes is one Kafka takes too. Book records of
 * 500 levels are about 30 KB and quote records about 15 KB.
 */
export const MAX_RECORD_BYTES = 1_000_000;
/** Keys are framed with a u16 length in the embedded log. */
export const MAX_KEY_BYTES = 0xffff;

/** Why an entry is too large for the log, or null. Exact byte counts only near the limits. */
export function entrySizeError(key: string, value: string): string | null {
  if (key.length * 3 > MAX_KEY_BYTES) {
    const k = Buffer.byteLength(key, 'utf8');
    if (k > MAX_KEY_BYTES) return `log key is ${k} bytes; at most ${MAX_KEY_BYTES}`;
  }
  if ((key.length + value.length) * 3 > MAX_RECORD_BYTES) {
    const bytes = Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
    if (bytes > MAX_RECORD_BYTES)
      return `log entry is ${bytes} bytes (key ${key.slice(0, 80)}); at most ${MAX_RECORD_BYTES}`;
  }
  return null;
}

/**
 * Refuse a batch holding an entry that is not a string pair or is too large: nothing of it is
 * written, and the error lists the refused indices so a caller can drop them and send the rest.
 */
export function checkEntries(topic: string, entries: readonly AppendEntry[]): void {
  let rejected: number[] | null = null;
  let first = '';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (typeof e.key !== 'string' || typeof e.value !== 'string')
      throw new LogError('bad_argument', 'log entries need a string key and value');
    const why = entrySizeError(e.key, e.value);
    if (why === null) continue;
    (rejected ??= []).push(i);
    if (first === '') first = why;
  }
  if (rejected !== null)
    throw new LogError(
      'too_large',
      `${topic}: ${rejected.length} entr${rejected.length === 1 ? 'y' : 'ies'} refused: ${first}`,
      { rejected },
    );
}
