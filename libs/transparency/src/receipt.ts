import { createHash } from 'node:crypto';
import { keyIdHex, toBase64url } from './encoding';
import { HASH_BYTES, type Hash } from './hash';
import type { SigningKey } from './note-key';
import { ORIGIN, REQUEST_ID } from './strict-json';

/**
 * The quote receipt, version 1, as it travels (base64url of this JSON, keys in this order, no
 * spaces) in the `x-quote-receipt` header. docs/audit.md defines every field and both texts.
 */
export interface Receipt {
  readonly v: 1;
  /** The signing API process's log origin, `route-service/<name>`; also its key's name. */
  readonly origin: string;
  /** The signing key's note key id, 8 lowercase hex digits. */
  readonly keyId: string;
  readonly requestId: string;
  /** base64url (unpadded) SHA-256 of the exact response bytes. */
  readonly sha256: string;
  /** The response's length in bytes. */
  readonly bytes: number;
  /** Epoch milliseconds of the computation, as in the response body. */
  readonly calculatedAt: number;
  /** base64url Ed25519 signature over quoteText(receipt): the receipt's only signature. */
  readonly signature: string;
  /** Always `indicative` (the format admits nothing else): information, not an offer to trade. */
  readonly terms: 'indicative';
  /**
   * Unsigned lookup hint: base64url of the journal record's RFC 6962 leaf hash. The record itself
   * names requestId and response sha256, which the signature covers; the hint only saves a search.
   */
  readonly recordHash: string;
  /** Unsigned lookup hint: the record's leaf index when the append had returned it; else null. */
  readonly leafIndex: number | null;
}

/** The receipt's keys in their one encoded order. */
export const RECEIPT_KEYS = [
  'v',
  'origin',
  'keyId',
  'requestId',
  'sha256',
  'bytes',
  'calculatedAt',
  'signature',
  'terms',
  'recordHash',
  'leafIndex',
] as const satisfies readonly (keyof Receipt)[];

type QuoteFields = Pick<Receipt, 'origin' | 'requestId' | 'sha256' | 'bytes' | 'calculatedAt'>;

/** The text `signature` covers, exactly as the issue defines v1. */
export function quoteText(r: QuoteFields): string {
  return `route-service receipt v1\n${r.origin}\n${r.requestId}\n${r.sha256}\n${r.bytes}\n${r.calculatedAt}\n`;
}

/** What the API knows when it has the response bytes and has appended (or queued) the record. */
export interface ReceiptInput {
  readonly requestId: string;
  /** The exact response bytes, or their SHA-256 and length when the caller already has them. */
  readonly response: Uint8Array | { readonly sha256: Hash; readonly bytes: number };
  readonly calculatedAt: number;
  /** leafHash(record bytes). */
  readonly recordHash: Hash;
  readonly leafIndex: number | null;
}

/** Build and sign a receipt with the origin's key (whose name is the origin). */
export function signReceipt(input: ReceiptInput, key: SigningKey): Receipt {
  const { sha256, bytes } = responseDigest(input.response);
  // What decodeReceipt would refuse is a caller's bug: say so here, not at the auditor's.
  const count = (n: number | null) => n === null || (Number.isSafeInteger(n) && n >= 0);
  if (!ORIGIN.test(key.name) || !REQUEST_ID.test(input.requestId))
    throw new RangeError('bad origin or requestId');
  if (![bytes, input.calculatedAt, input.leafIndex].every(count))
    throw new RangeError('bytes, calculatedAt and leaf index are integers in [0, 2^53 - 1]');
  if (input.recordHash.length !== HASH_BYTES) throw new RangeError('recordHash is 32 bytes');
  const fields = {
    origin: key.name,
    requestId: input.requestId,
    sha256: toBase64url(sha256),
    bytes,
    calculatedAt: input.calculatedAt,
    terms: 'indicative' as const,
    recordHash: toBase64url(input.recordHash),
    leafIndex: input.leafIndex,
  };
  return {
    v: 1,
    origin: fields.origin,
    keyId: keyIdHex(key.keyId),
    requestId: fields.requestId,
    sha256: fields.sha256,
    bytes,
    calculatedAt: fields.calculatedAt,
    signature: toBase64url(key.sign(Buffer.from(quoteText(fields), 'utf8'))),
    terms: fields.terms,
    recordHash: fields.recordHash,
    leafIndex: fields.leafIndex,
  };
}

/** The header value: base64url of the receipt's JSON with its keys in RECEIPT_KEYS order. */
export function encodeReceipt(r: Receipt): string {
  return Buffer.from(receiptJson(r), 'utf8').toString('base64url');
}

/** Text JSON writes as it is, between quotes (no escape). */
export const PLAIN = /^[\w./-]*$/;

/**
 * The receipt's one JSON text: JSON.stringify with the keys in RECEIPT_KEYS order. Every quote is
 * signed on the answering thread, and a key-list replacer costs about 8 us there; so a receipt
 * whose strings need no escape (all that the service signs: base64url, hex, requestIds, origin
 * names) is written out, the same bytes, and any other goes through JSON.stringify.
 */
export function receiptJson(r: Receipt): string {
  const { origin, keyId, requestId, sha256, signature, terms, recordHash } = r;
  for (const text of [origin, keyId, requestId, sha256, signature, terms, recordHash])
    if (typeof text !== 'string' || !PLAIN.test(text))
      return JSON.stringify(r, RECEIPT_KEYS as unknown as string[]);
  const counts = [r.v, r.bytes, r.calculatedAt];
  if (!counts.every(Number.isSafeInteger) || !(r.leafIndex === null || Number.isSafeInteger(r.leafIndex)))
    return JSON.stringify(r, RECEIPT_KEYS as unknown as string[]);
  return (
    `{"v":${r.v},"origin":"${origin}","keyId":"${keyId}","requestId":"${requestId}","sha256":"${sha256}",` +
    `"bytes":${r.bytes},"calculatedAt":${r.calculatedAt},"signature":"${signature}","terms":"${terms}",` +
    `"recordHash":"${recordHash}","leafIndex":${r.leafIndex}}`
  );
}

/** SHA-256 and length of a response, as a receipt states them. */
export function responseDigest(response: ReceiptInput['response']): { sha256: Hash; bytes: number } {
  if (response instanceof Uint8Array)
    return { sha256: createHash('sha256').update(response).digest(), bytes: response.length };
  if (response.sha256.length !== HASH_BYTES) throw new RangeError('sha256 is 32 bytes');
  return { sha256: response.sha256, bytes: response.bytes };
}
