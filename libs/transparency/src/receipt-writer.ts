import { keyIdHex, toBase64url } from './encoding';
import { HASH_BYTES, type Hash } from './hash';
import type { SigningKey } from './note-key';
import { encodeReceipt, PLAIN, signReceipt } from './receipt';
import { ORIGIN, REQUEST_ID } from './strict-json';

/** One answer to sign: what signReceipt takes, with the response already hashed. */
export interface QuoteToSign {
  readonly requestId: string;
  /** SHA-256 of the exact response bytes, and their length. */
  readonly sha256: Hash;
  readonly bytes: number;
  readonly calculatedAt: number;
  /** leafHash of the journal record. */
  readonly recordHash: Hash;
  readonly leafIndex: number | null;
}

const count = (n: number | null): boolean => n === null || (Number.isSafeInteger(n) && n >= 0);

/**
 * encodeReceipt(signReceipt(...)) for every answer of one key, the same bytes: the service signs
 * each quote on the answering thread, so what depends only on the key (origin checks, key id, the
 * texts' heads) is worked out once here, and the receipt goes straight to its header text with no
 * Receipt object and no per-field escape check (base64url, hex and requestIds need none). Input
 * signReceipt would refuse, or an origin JSON would escape, takes signReceipt's own path.
 */
export function receiptWriter(key: SigningKey): (quote: QuoteToSign) => string {
  const general = (q: QuoteToSign): string =>
    encodeReceipt(
      signReceipt(
        {
          requestId: q.requestId,
          response: { sha256: q.sha256, bytes: q.bytes },
          calculatedAt: q.calculatedAt,
          recordHash: q.recordHash,
          leafIndex: q.leafIndex,
        },
        key,
      ),
    );
  const origin = key.name;
  if (!ORIGIN.test(origin) || !PLAIN.test(origin)) return general;
  const textHead = `route-service receipt v1\n${origin}\n`;
  const jsonHead = `{"v":1,"origin":"${origin}","keyId":"${keyIdHex(key.keyId)}","requestId":"`;
  return (q) => {
    const { requestId, bytes, calculatedAt, leafIndex } = q;
    // REQUEST_ID admits only characters JSON writes as they are.
    if (
      !REQUEST_ID.test(requestId) ||
      !count(bytes) ||
      !count(calculatedAt) ||
      !count(leafIndex) ||
      q.sha256.length !== HASH_BYTES ||
      q.recordHash.length !== HASH_BYTES
    )
      return general(q);
    const sha256 = toBase64url(q.sha256);
    // quoteText(), and the receipt's JSON as receiptJson() writes it; both ASCII by the checks above.
    const text = `${textHead}${requestId}\n${sha256}\n${bytes}\n${calculatedAt}\n`;
    const signature = toBase64url(key.sign(Buffer.from(text, 'latin1')));
    const json =
      `${jsonHead}${requestId}","sha256":"${sha256}","bytes":${bytes},"calculatedAt":${calculatedAt},` +
      `"signature":"${signature}","terms":"indicative","recordHash":"${toBase64url(q.recordHash)}",` +
      `"leafIndex":${leafIndex}}`;
    return Buffer.from(json, 'latin1').toString('base64url');
  };
}
