import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafHash } from './hash';
import { parseKeysDocument, publishKey, type TrustedKey } from './keys';
import { signingKeyFromSeed } from './note-key';
import { encodeReceipt, quoteText, RECEIPT_KEYS, receiptJson, signReceipt, type Receipt } from './receipt';
import { decodeReceipt, MAX_RECEIPT_CHARS } from './receipt-decode';
import { checkReplay, verifyReceiptSignatures } from './receipt-verify';

const ORIGIN = 'route-service/rfc8032-test1';
const key = signingKeyFromSeed(
  ORIGIN,
  Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'),
);
const keys = (): TrustedKey[] => {
  const parsed = parseKeysDocument(JSON.stringify({ keys: [publishKey(key, 0, null)] }));
  if (!parsed.ok) throw new Error(parsed.error.detail);
  return parsed.value;
};
const BODY = Buffer.from('{"requestId":"kat-1","note":"a stand-in response body"}');
const RECORD = Buffer.from('{"v":2,"type":"quote","requestId":"kat-1"}');
const input = {
  requestId: 'kat-1',
  response: BODY,
  calculatedAt: 1767225600000,
  recordHash: leafHash(RECORD),
  leafIndex: 41,
};

const header = (r: object): string => Buffer.from(JSON.stringify(r)).toString('base64url');
const decoded = (h: string): Receipt => {
  const d = decodeReceipt(h);
  if (!d.ok) throw new Error(d.error.detail);
  return d.value;
};

describe('receipts', () => {
  it('sign to the known answer (test/receipt-kat.sh), encode, decode and verify', () => {
    const r = signReceipt(input, key);
    expect(r).toMatchObject({
      sha256: 'bP9B1bQqdxU-3ibrA5cX1svu-_mzHI7mSYmXUl34364',
      bytes: 55,
      recordHash: 'rX6QAN2zQX7K6VxUyhimzQVX4BtMlE0egFw3zpypf6I',
      keyId: 'dc97567a',
      signature: 'jFXqKFMkpEo8PmStyoazjDmjBsAJKclI35qTjmT2AYowYAZc_6nY9vIuPc01WlB_EjHeyPt1ct6VLYGbJ9bIDw',
    });
    expect(quoteText(r)).toBe(
      `route-service receipt v1\n${ORIGIN}\nkat-1\nbP9B1bQqdxU-3ibrA5cX1svu-_mzHI7mSYmXUl34364\n55\n1767225600000\n`,
    );
    const h = encodeReceipt(r);
    expect(h.length).toBeLessThan(MAX_RECEIPT_CHARS / 2);
    expect(decoded(h)).toEqual(r);
    expect(verifyReceiptSignatures(decoded(h), keys())).toEqual({ ok: true });
    expect(checkReplay(r, BODY)).toEqual({ ok: true });
    expect(checkReplay(r, Buffer.concat([BODY, Buffer.from(' ')]))).toMatchObject({
      failure: 'replay_differs',
    });
  });

  it('a change to any signed field is a bad signature; another origin or key id an unknown key', () => {
    const r = signReceipt({ ...input, leafIndex: null }, key);
    const changed: [keyof Receipt, unknown][] = [
      ['requestId', 'kat-2'],
      ['sha256', signReceipt({ ...input, response: RECORD }, key).sha256],
      ['bytes', 56],
      ['calculatedAt', 1767225600001],
      ['signature', signReceipt({ ...input, requestId: 'kat-2' }, key).signature],
    ];
    for (const [field, value] of changed) {
      const v = verifyReceiptSignatures(decoded(header({ ...r, [field]: value })), keys());
      expect(v, field).toMatchObject({ ok: false, failure: 'bad_signature' });
    }
    // The log hints are unsigned by design (one signature per quote): changing them leaves the
    // signature valid, and only the log lookup (inclusion, record checks) can fail on them.
    for (const [field, value] of [
      ['recordHash', r.sha256],
      ['leafIndex', 7],
    ] as const)
      expect(verifyReceiptSignatures(decoded(header({ ...r, [field]: value })), keys()), field).toEqual({
        ok: true,
      });
    expect(verifyReceiptSignatures({ ...r, origin: 'route-service/b' }, keys())).toMatchObject({
      failure: 'unknown_key',
    });
    expect(verifyReceiptSignatures({ ...r, keyId: '00000000' }, keys())).toMatchObject({
      failure: 'unknown_key',
    });
  });

  it('refuses to sign what no verifier would decode', () => {
    expect(() => signReceipt({ ...input, requestId: 'a\nb' }, key)).toThrow(RangeError);
    expect(() => signReceipt({ ...input, leafIndex: -1 }, key)).toThrow(RangeError);
    expect(() => signReceipt({ ...input, calculatedAt: 1.5 }, key)).toThrow(RangeError);
    expect(() => signReceipt(input, signingKeyFromSeed('route service', Buffer.alloc(32)))).toThrow(
      RangeError,
    );
  });

  it('a rotated-out key vouches only for quotes of its time', () => {
    const r = signReceipt(input, key);
    const rotated = parseKeysDocument({ keys: [publishKey(key, 0, input.calculatedAt)] });
    expect(rotated.ok && verifyReceiptSignatures(r, rotated.value)).toMatchObject({ failure: 'unknown_key' });
    const early = parseKeysDocument({ keys: [publishKey(key, input.calculatedAt + 1, null)] });
    expect(early.ok && verifyReceiptSignatures(r, early.value)).toMatchObject({ failure: 'unknown_key' });
  });

  it('decoding refuses anything but the one canonical encoding of a well-formed receipt', () => {
    const r = signReceipt(input, key);
    const json = JSON.stringify(r);
    const cases: [string, string][] = [
      ['x'.repeat(MAX_RECEIPT_CHARS + 1), 'too_large'],
      [`${encodeReceipt(r)}=`, 'not_base64url'],
      [`${encodeReceipt(r).slice(0, -1)}+`, 'not_base64url'],
      [` ${encodeReceipt(r)}`, 'not_base64url'],
      [header([r]), 'not_object'],
      [Buffer.from('{"v":1,').toString('base64url'), 'not_json'],
      [Buffer.from([0xff, 0xfe]).toString('base64url'), 'not_json'],
      [header({ ...r, v: 2 }), 'bad_version'],
      [header({ ...r, extra: 1 }), 'unknown_field'],
      [header({ ...r, leafIndex: undefined }), 'missing_field'],
      [header({ ...r, mergeBy: r.calculatedAt }), 'unknown_field'],
      [header({ ...r, requestId: 'a\nb' }), 'bad_field'],
      [header({ ...r, origin: 'route service' }), 'bad_field'],
      [header({ ...r, bytes: -1 }), 'bad_field'],
      [header({ ...r, bytes: 1.5 }), 'bad_field'],
      [header({ ...r, calculatedAt: 2 ** 53 }), 'bad_field'],
      [header({ ...r, leafIndex: '41' }), 'bad_field'],
      [header({ ...r, leafIndex: -1 }), 'bad_field'],
      [header({ ...r, terms: 'firm' }), 'bad_field'],
      [header({ ...r, keyId: 'DC97567A' }), 'bad_field'],
      [header({ ...r, sha256: `${r.sha256.slice(0, 42)}9` }), 'bad_field'],
      [header({ ...r, signature: r.signature.slice(1) }), 'bad_field'],
      [Buffer.from(json.replace(',', ', ')).toString('base64url'), 'not_canonical'],
      [Buffer.from(json.replace('{', '{"v":1,')).toString('base64url'), 'not_canonical'],
      [header({ origin: r.origin, v: 1, ...(({ v: _v, origin: _o, ...rest }) => rest)(r) }), 'not_canonical'],
    ];
    for (const [h, code] of cases)
      expect(decodeReceipt(h), code).toMatchObject({ ok: false, error: { code } });
  });

  it('hostile headers never throw; a one-character change verifies only if it touched a hint', () => {
    const signed = signReceipt(input, key);
    const good = encodeReceipt(signed);
    const trusted = keys();
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (s) => {
        expect(decodeReceipt(s).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.constantFrom(...'AQgw_-9z'), (at, ch) => {
        const h = good.slice(0, at) + ch + good.slice(at + 1);
        const d = decodeReceipt(h);
        if (h === good || !d.ok) return;
        const { recordHash: _h, leafIndex: _i, ...signedPart } = d.value;
        const { recordHash: _h0, leafIndex: _i0, ...original } = signed;
        const onlyHints = JSON.stringify(signedPart) === JSON.stringify(original);
        expect(verifyReceiptSignatures(d.value, trusted).ok).toBe(onlyHints);
      }),
      { numRuns: 400 },
    );
  });

  it('writes the receipt JSON exactly as JSON.stringify in key order, for every receipt, plain or not', () => {
    const text = fc.oneof(fc.stringMatching(/^[\w./-]{0,40}$/), fc.string({ maxLength: 20 }));
    const count = fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER), fc.double());
    fc.assert(
      fc.property(
        fc.record({
          v: fc.constantFrom(1, 2),
          origin: text,
          keyId: text,
          requestId: text,
          sha256: text,
          bytes: count,
          calculatedAt: count,
          signature: text,
          terms: text,
          recordHash: text,
          leafIndex: fc.oneof(fc.constant(null), count),
        }),
        (r) => {
          const receipt = r as unknown as Receipt;
          expect(receiptJson(receipt)).toBe(JSON.stringify(receipt, [...RECEIPT_KEYS]));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
