import { resolve } from 'node:path';
import { errorMessage } from '@app/retry';
import { UsageError } from '@app/config';
import {
  decodeReceipt,
  MAX_KEYS_CHARS,
  parseKeysDocument,
  type Receipt,
  type TrustedKey,
} from '@app/transparency';
import type { CliContext } from '../cli/context';
import { readCapped } from '../cli/read-capped';

/** A /keys URL is read for at most this long. */
const FETCH_TIMEOUT_MS = 10_000;

/**
 * The receipt: a file's text, or standard input when the path is '-' or absent; the header's
 * value, alone or after `x-quote-receipt:`, surrounding whitespace ignored.
 */
export async function readReceipt(path: string | undefined, ctx: CliContext): Promise<Receipt> {
  const text =
    path === undefined || path === '-' ? await ctx.stdin() : readBounded(resolve(ctx.cwd, path), 'receipt');
  if (text === null)
    throw new UsageError('verify needs a receipt: a file, or the header value on standard input');
  const value = text.trim().replace(/^x-quote-receipt:\s*/i, '');
  const decoded = decodeReceipt(value);
  if (!decoded.ok) {
    const e = decoded.error;
    throw new UsageError(
      `the receipt does not decode: ${e.code}${e.field === null ? '' : ` (${e.field})`}: ${e.detail}`,
    );
  }
  return decoded.value;
}

/** The trusted keys: each source a /keys document in a file, or an http(s) URL of one. */
export async function readKeys(sources: readonly string[], ctx: CliContext): Promise<TrustedKey[]> {
  if (sources.length === 0)
    throw new UsageError("verify needs --keys <file or URL> (the origin's GET /keys)");
  const keys: TrustedKey[] = [];
  for (const source of sources) {
    const text = /^https?:\/\//.test(source)
      ? await fetchKeys(source)
      : readBounded(resolve(ctx.cwd, source), '--keys');
    const parsed = parseKeysDocument(text);
    if (!parsed.ok)
      throw new UsageError(`--keys ${source}: refused: ${parsed.error.code}: ${parsed.error.detail}`);
    keys.push(...parsed.value);
  }
  return keys;
}

function readBounded(path: string, what: string): string {
  try {
    return readCapped(path, MAX_KEYS_CHARS);
  } catch (e) {
    throw new UsageError(`${what}: cannot read ${path}: ${errorMessage(e)}`);
  }
}

async function fetchKeys(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return await cappedText(res, MAX_KEYS_CHARS);
  } catch (e) {
    throw new UsageError(`--keys ${url}: ${errorMessage(e)}`);
  }
}

/**
 * The body as text, given up as soon as it passes `max` bytes: a key list is small, and a server
 * sending more is not read whole into the auditor's memory.
 */
async function cappedText(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > max) throw new Error(`larger than ${max} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body !== null)
    for await (const piece of res.body) {
      const chunk = piece as Uint8Array;
      size += chunk.byteLength;
      // Leaving the loop cancels the rest of the body.
      if (size > max) throw new Error(`larger than ${max} bytes`);
      chunks.push(chunk);
    }
  return Buffer.concat(chunks).toString('utf8');
}
