import { fromBase64url } from './encoding';
import { RECEIPT_KEYS, receiptJson, type Receipt } from './receipt';
import {
  count,
  countOrNull,
  exactObject,
  fail,
  ORIGIN,
  parseJsonText,
  parsing,
  REQUEST_ID,
  text,
  type Parsed,
} from './strict-json';

/** A header longer than this is refused unread: an honest receipt is about 700 characters. */
export const MAX_RECEIPT_CHARS = 2048;

const B64URL_HASH = /^[A-Za-z0-9_-]{43}$/;
const B64URL_SIG = /^[A-Za-z0-9_-]{86}$/;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * An `x-quote-receipt` value back to a receipt: bounded, linear, every field checked, and only
 * the one canonical encoding accepted (so one receipt has one spelling). Says nothing yet about
 * its signature: verifyReceiptSignatures does.
 */
export function decodeReceipt(header: string): Parsed<Receipt> {
  return parsing(() => {
    if (header.length > MAX_RECEIPT_CHARS) fail('too_large', null, `over ${MAX_RECEIPT_CHARS} characters`);
    const bytes = fromBase64url(header);
    if (bytes === null) fail('not_base64url', null, 'not canonical unpadded base64url');
    let json: string;
    try {
      json = fatalUtf8.decode(bytes);
    } catch {
      return fail('not_json', null, 'not UTF-8');
    }
    const receipt = readReceipt(parseJsonText(json, MAX_RECEIPT_CHARS));
    if (receiptJson(receipt) !== json) fail('not_canonical', null, 'keys out of order, spaces or escapes');
    return receipt;
  });
}

/** A parsed JSON value as a receipt, field by field. */
export function parseReceipt(value: unknown): Parsed<Receipt> {
  return parsing(() => readReceipt(value));
}

function readReceipt(value: unknown): Receipt {
  const o = exactObject(value, RECEIPT_KEYS);
  if (o.v !== 1) fail('bad_version', 'v', 'only version 1 is defined');
  const hash = (key: string) => {
    const t = text(o, key, B64URL_HASH);
    if (fromBase64url(t, 32) === null) fail('bad_field', key, 'not canonical base64url of 32 bytes');
    return t;
  };
  const sig = (key: string) => {
    const t = text(o, key, B64URL_SIG);
    if (fromBase64url(t, 64) === null) fail('bad_field', key, 'not canonical base64url of 64 bytes');
    return t;
  };
  if (o.terms !== 'indicative') fail('bad_field', 'terms', "must be 'indicative'");
  return {
    v: 1,
    origin: text(o, 'origin', ORIGIN),
    keyId: text(o, 'keyId', /^[0-9a-f]{8}$/),
    requestId: text(o, 'requestId', REQUEST_ID),
    sha256: hash('sha256'),
    bytes: count(o, 'bytes'),
    calculatedAt: count(o, 'calculatedAt'),
    signature: sig('signature'),
    terms: 'indicative',
    recordHash: hash('recordHash'),
    leafIndex: countOrNull(o, 'leafIndex'),
  };
}
