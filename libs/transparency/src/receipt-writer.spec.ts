import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafHash, leafHashOfText, nodeHash } from './hash';
import { signingKeyFromSeed } from './note-key';
import { encodeReceipt, signReceipt } from './receipt';
import { receiptWriter, type QuoteToSign } from './receipt-writer';

const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const key = signingKeyFromSeed('route-service/rfc8032-test1', SEED);
const sha = (text: string): Buffer => createHash('sha256').update(text).digest();
const quote: QuoteToSign = {
  requestId: 'kat-1',
  sha256: sha('{"requestId":"kat-1","note":"a stand-in response body"}'),
  bytes: 55,
  calculatedAt: 1767225600000,
  recordHash: leafHash(Buffer.from('{"v":2,"type":"quote","requestId":"kat-1"}')),
  leafIndex: 41,
};
// What the writer stands in for: the receipt built as an object, then encoded.
const reference = (q: QuoteToSign, k = key): string =>
  encodeReceipt(
    signReceipt(
      {
        requestId: q.requestId,
        response: { sha256: q.sha256, bytes: q.bytes },
        calculatedAt: q.calculatedAt,
        recordHash: q.recordHash,
        leafIndex: q.leafIndex,
      },
      k,
    ),
  );

describe('receiptWriter', () => {
  it('writes the known-answer receipt of receipt.spec.ts byte for byte', () => {
    const header = receiptWriter(key)(quote);
    expect(header).toBe(reference(quote));
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({
      signature: 'jFXqKFMkpEo8PmStyoazjDmjBsAJKclI35qTjmT2AYowYAZc_6nY9vIuPc01WlB_EjHeyPt1ct6VLYGbJ9bIDw',
      recordHash: 'rX6QAN2zQX7K6VxUyhimzQVX4BtMlE0egFw3zpypf6I',
    });
  });

  it('gives the same header as signReceipt and encodeReceipt for any quote', () => {
    const write = receiptWriter(key);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_.-]{1,200}$/),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.nat(),
        fc.maxSafeNat(),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.option(fc.maxSafeNat()),
        (requestId, sha256, bytes, calculatedAt, recordHash, leafIndex) => {
          const q = {
            requestId,
            sha256: Buffer.from(sha256),
            bytes,
            calculatedAt,
            recordHash: Buffer.from(recordHash),
            leafIndex,
          };
          expect(write(q)).toBe(reference(q));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an origin JSON escapes is written through JSON.stringify, the same bytes', () => {
    const odd = signingKeyFromSeed('route-service/a"b\\c', SEED);
    expect(receiptWriter(odd)(quote)).toBe(reference(quote, odd));
    expect(Buffer.from(receiptWriter(odd)(quote), 'base64url').toString()).toContain(
      '"origin":"route-service/a\\"b\\\\c"',
    );
  });

  it('refuses what signReceipt refuses, with its errors', () => {
    const write = receiptWriter(key);
    for (const bad of [
      { ...quote, requestId: 'has space' },
      { ...quote, requestId: '' },
      { ...quote, bytes: -1 },
      { ...quote, calculatedAt: 1.5 },
      { ...quote, leafIndex: 2 ** 53 },
      { ...quote, sha256: Buffer.alloc(31) },
      { ...quote, recordHash: Buffer.alloc(33) },
    ]) {
      expect(() => reference(bad)).toThrow(RangeError);
      expect(() => write(bad)).toThrow(RangeError);
    }
  });
});

describe('one-call hashes', () => {
  it('leafHashOfText is leafHash of the UTF-8 bytes, non-ASCII and U+0000 included', () => {
    for (const text of ['', '{"v":2}', 'caf\u00e9 \u{1f600}', 'a\u0000b'])
      expect(leafHashOfText(text)).toEqual(leafHash(Buffer.from(text, 'utf8')));
  });

  it('nodeHash is SHA-256(0x01 || left || right), each call its own result', () => {
    const a = sha('a');
    const b = sha('b');
    const ab = nodeHash(a, b);
    const ba = nodeHash(b, a);
    expect(ab).toEqual(
      createHash('sha256')
        .update(Buffer.from([1]))
        .update(a)
        .update(b)
        .digest(),
    );
    expect(ba).toEqual(
      createHash('sha256')
        .update(Buffer.from([1]))
        .update(b)
        .update(a)
        .digest(),
    );
    expect(nodeHash(a, b)).toEqual(ab);
    expect(nodeHash(Buffer.alloc(3), b)).toEqual(
      createHash('sha256')
        .update(Buffer.from([1, 0, 0, 0]))
        .update(b)
        .digest(),
    );
  });
});
