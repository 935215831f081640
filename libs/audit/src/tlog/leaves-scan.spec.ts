import { describe, expect, it } from 'vitest';
import { leafHash } from '@app/transparency';
import { scanLeavesEntry } from './leaves-scan';
import { encodeTlogEntry, parseTlogEntry, type LeafRef } from './tlog-entry';

const ORIGIN = 'route-service/scan';
const leaves = (keys: readonly string[]): LeafRef[] =>
  keys.map((key, i) => ({
    topic: i % 3 === 2 ? 'stream-ledger' : 'quotes',
    key,
    hash: leafHash(Buffer.from(key)),
  }));
const entry = (from: number, keys: readonly string[]): string =>
  encodeTlogEntry({ type: 'tlog_leaves', origin: ORIGIN, from, leaves: leaves(keys) });

/** What JSON parsing makes of the text, in the scanner's shape, or null when it refuses it. */
function parsed(text: string) {
  const p = parseTlogEntry(text);
  if (!p.ok || p.entry.type !== 'tlog_leaves' || p.entry.origin !== ORIGIN) return null;
  return {
    from: p.entry.from,
    topics: p.entry.leaves.map((l) => l.topic),
    keys: p.entry.leaves.map((l) => l.key),
    hashes: Buffer.concat(p.entry.leaves.map((l) => l.hash)).toString('hex'),
  };
}

function scanned(text: string) {
  const s = scanLeavesEntry(text, ORIGIN);
  return s === null
    ? null
    : { from: s.from, topics: s.topics, keys: s.keys, hashes: s.hashes.toString('hex') };
}

describe('scanLeavesEntry', () => {
  it('reads what encodeTlogEntry writes exactly as JSON parsing does', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `req-${i}.x_y-${'z'.repeat(i % 200)}`);
    for (const text of [
      entry(0, ['a']),
      entry(123_456_789, keys),
      entry(9_007_199_254_740_990, ['é', '日本']),
    ]) {
      expect(scanned(text)).not.toBeNull();
      expect(scanned(text)).toEqual(parsed(text));
    }
  });

  it('leaves every other spelling to JSON parsing, which accepts or refuses it', () => {
    const good = entry(7, ['k1', 'k2']);
    const hash = leafHash(Buffer.from('k1')).toString('base64');
    const variants = [
      good.replace('"k1"', '"k\\u0031"'), // an escape: the same key to JSON
      good.replace('"k1"', '"k\\"1"'),
      good.replace('"k1"', '"k\t1"'), // a raw control character: refused
      good.replace('"from":7', '"from":7.0'),
      good.replace('"from":7', '"from":07'),
      good.replace('"from":7', '"from":-7'),
      good.replace('"from":7', '"from":99999999999999999'),
      good.replace(
        hash,
        hash.replace(/.=$/, (c) => `${String.fromCharCode(c.charCodeAt(0) + 1)}=`),
      ), // bits after the last byte
      good.replace(hash, hash.replace(/^./, '*')),
      good.replace(hash, `${hash.slice(0, -1)}A`),
      good.replace('"quotes"', '"books"'),
      good.replace('"leaves":[', '"leaves": ['),
      good.replace(']]}', ']],"x":1}'),
      good.replace(']]}', ']]} '),
      good.replace(']]}', ']]'),
      good.replace(',"leaves":[', ',"leaves":[],"y":['),
      good.replace(`"origin":"${ORIGIN}"`, '"origin":"route-service/other"'),
      good.slice(0, good.length - 40),
      encodeTlogEntry({ type: 'tlog_checkpoint', origin: ORIGIN, note: 'x' }),
    ];
    expect(variants.map((v) => scanned(v) !== null)).toEqual(variants.map(() => false));
    // JSON parsing then reads the escaped key as the key it is, and refuses the broken ones.
    expect(parsed(variants[0]!)?.keys).toEqual(['k1', 'k2']);
    expect(variants.slice(2, 4).map(parsed)).toEqual([null, expect.anything()]);
  });
});
