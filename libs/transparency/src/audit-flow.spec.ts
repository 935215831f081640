import { describe, expect, it } from 'vitest';
import { openCheckpoint, promiseCovers, promiseLines, readPromise, signCheckpoint } from './checkpoint';
import { leafHash } from './hash';
import { MemoryHashColumn } from './hash-column';
import { HashTree } from './hash-tree';
import { parseKeysDocument, publishKey, type TrustedKey } from './keys';
import { signingKeyFromSeed } from './note-key';
import {
  consistencyProofJson,
  inclusionProofJson,
  parseConsistencyProof,
  parseInclusionProof,
  type InclusionProof,
} from './proof-json';
import { responseDigest, signReceipt } from './receipt';
import { checkRecord, checkRecordedQuote, verifyReceiptInclusion } from './receipt-verify';
import { verifyConsistency } from './verify';

const ORIGIN = 'route-service/a';
const key = signingKeyFromSeed(ORIGIN, Buffer.alloc(32, 1));
const otherReplica = signingKeyFromSeed('route-service/b', Buffer.alloc(32, 2));
const trusted = (): TrustedKey[] => {
  const doc = JSON.stringify({ keys: [publishKey(key, 0, null), publishKey(otherReplica, 0, null)] });
  const parsed = parseKeysDocument(doc);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  return parsed.value;
};

/** A small log as the integration will keep one: records in append order, a tree, checkpoints. */
function log(count: number) {
  const tree = new HashTree({ column: () => new MemoryHashColumn() });
  const records = Array.from({ length: count }, (_, i) => Buffer.from(`{"requestId":"q-${i}"}`));
  const receipts = records.map((record, i) => {
    tree.append(leafHash(record));
    return signReceipt(
      {
        requestId: `q-${i}`,
        response: Buffer.from(`body ${i}`),
        calculatedAt: 1000 + i,
        recordHash: leafHash(record),
        leafIndex: i,
      },
      key,
    );
  });
  const checkpoint = signCheckpoint(
    { origin: ORIGIN, size: tree.size, root: tree.root(), extensions: [] },
    key,
  );
  const proof = (i: number): InclusionProof => {
    const path = tree.inclusion(i, tree.size);
    if (!path.ok) throw new Error('missing');
    return {
      origin: ORIGIN,
      requestId: `q-${i}`,
      leafIndex: i,
      treeSize: tree.size,
      inclusionPath: path.value,
      checkpoint,
    };
  };
  return { tree, records, receipts, proof };
}

/** Through JSON text and the strict parser, as an auditor on another machine receives it. */
const overTheWire = (p: InclusionProof): InclusionProof => {
  const parsed = parseInclusionProof(JSON.parse(JSON.stringify(inclusionProofJson(p))));
  if (!parsed.ok) throw new Error(parsed.error.detail);
  return parsed.value;
};

describe('a receipt checked against the log', () => {
  const l = log(37);

  it('verifies for every record, through the proof JSON', () => {
    for (let i = 0; i < 37; i++) {
      expect(verifyReceiptInclusion(l.receipts[i]!, overTheWire(l.proof(i)), trusted())).toEqual({
        ok: true,
      });
      expect(checkRecord(l.receipts[i]!, l.records[i]!)).toEqual({ ok: true });
    }
  });

  it('names inclusion_failed and record_altered for each kind of tampering', () => {
    const r = l.receipts[5]!;
    const p = l.proof(5);
    const otherCheckpoint = signCheckpoint(
      { origin: ORIGIN, size: p.treeSize, root: leafHash(Buffer.from('x')), extensions: [] },
      key,
    );
    const forged = signCheckpoint(
      { origin: ORIGIN, size: p.treeSize, root: l.tree.root(), extensions: [] },
      signingKeyFromSeed(ORIGIN, Buffer.alloc(32, 3)),
    );
    const bad: [string, InclusionProof][] = [
      ['another leaf index (reordered)', { ...l.proof(6), requestId: 'q-5' }],
      [
        'a changed path hash',
        { ...p, inclusionPath: p.inclusionPath.map((h, j) => (j === 2 ? leafHash(h) : h)) },
      ],
      ['a path cut short', { ...p, inclusionPath: p.inclusionPath.slice(0, -1) }],
      ['a checkpoint with another root', { ...p, checkpoint: otherCheckpoint }],
      ['a checkpoint signed by a key not listed', { ...p, checkpoint: forged }],
      ['a checkpoint of another size', { ...p, treeSize: p.treeSize - 1 }],
      [
        "another replica's checkpoint",
        {
          ...p,
          checkpoint: signCheckpoint(
            { origin: 'route-service/b', size: p.treeSize, root: l.tree.root(), extensions: [] },
            otherReplica,
          ),
        },
      ],
    ];
    for (const [what, proof] of bad)
      expect(verifyReceiptInclusion(r, proof, trusted()), what).toMatchObject({
        ok: false,
        failure: 'inclusion_failed',
      });
    expect(checkRecord(r, Buffer.from('{"requestId":"q-5","edited":1}'))).toMatchObject({
      failure: 'record_altered',
    });
  });

  it('ties a receipt to its record by the signed fields; a wrong hint never fails a true inclusion', () => {
    const r = l.receipts[7]!;
    const recorded = { requestId: 'q-7', ...responseDigest(Buffer.from('body 7')), calculatedAt: 1007 };
    expect(checkRecordedQuote(r, recorded)).toEqual({ ok: true });
    for (const [field, value] of [
      ['requestId', 'q-8'],
      ['sha256', responseDigest(Buffer.from('body 8')).sha256],
      ['bytes', 99],
      ['calculatedAt', 1008],
    ] as const)
      expect(checkRecordedQuote(r, { ...recorded, [field]: value }), field).toMatchObject({
        failure: 'record_altered',
        detail: expect.stringContaining(field),
      });
    // A receipt whose unsigned hint was lost or edited still proves inclusion from the record found.
    const hinted = { ...r, recordHash: l.receipts[8]!.recordHash };
    expect(verifyReceiptInclusion(hinted, l.proof(7), trusted())).toMatchObject({
      failure: 'inclusion_failed',
    });
    expect(verifyReceiptInclusion(hinted, l.proof(7), trusted(), leafHash(l.records[7]!))).toEqual({
      ok: true,
    });
  });

  it('a consistency proof travels as JSON and verifies between two checkpoints', () => {
    const path = l.tree.consistency(20, 37);
    if (!path.ok) throw new Error('missing');
    const json = JSON.stringify(
      consistencyProofJson({ origin: ORIGIN, from: 20, to: 37, consistencyPath: path.value }),
    );
    const parsed = parseConsistencyProof(JSON.parse(json));
    expect(parsed.ok).toBe(true);
    const root20 = l.tree.rootAt(20);
    if (!parsed.ok || !root20.ok) throw new Error('unreachable');
    expect(verifyConsistency(20, 37, root20.value, l.tree.root(), parsed.value.consistencyPath)).toEqual({
      ok: true,
    });
  });
});

describe('the merge delay: a signed promise in every checkpoint', () => {
  const l = log(10);
  const promised = (time: number) =>
    signCheckpoint(
      {
        origin: ORIGIN,
        size: l.tree.size,
        root: l.tree.root(),
        extensions: promiseLines({ time, mergeDelayMs: 5000 }),
      },
      key,
    );
  const open = (note: string) => {
    const o = openCheckpoint(
      note,
      ORIGIN,
      trusted().map((k) => k.verifier),
    );
    if (!o.ok) throw new Error(o.detail);
    return o.checkpoint;
  };

  it('is read back from the signed note, and covers only quotes older than time - delay', () => {
    const cp = open(promised(7000));
    expect(cp.extensions).toEqual(['time 7000', 'merge-delay-ms 5000']);
    const p = readPromise(cp)!;
    expect(p).toEqual({ time: 7000, mergeDelayMs: 5000 });
    // l's receipts were calculated at 1000..1009: a checkpoint at 6005 covers the first six.
    const at6005 = readPromise(open(promised(6005)))!;
    expect(l.receipts.map((r) => promiseCovers(at6005, r.calculatedAt))).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => i <= 5),
    );
  });

  it('a covered receipt whose record no leaf of the tree holds is the signed contradiction', () => {
    const missing = signReceipt(
      {
        requestId: 'q-lost',
        response: Buffer.from('lost'),
        calculatedAt: 1500,
        recordHash: leafHash(Buffer.from('{"requestId":"q-lost"}')),
        leafIndex: null,
      },
      key,
    );
    const cp = open(promised(7000));
    expect(promiseCovers(readPromise(cp)!, missing.calculatedAt)).toBe(true);
    const leaves = l.records.map((r) => leafHash(r).toString('base64url'));
    expect(leaves).not.toContain(missing.recordHash);
  });

  it('a checkpoint without exactly the two lines, or with non-canonical numbers, promises nothing', () => {
    const base = { origin: ORIGIN, size: 1, root: leafHash(Buffer.alloc(0)) };
    for (const extensions of [
      [],
      ['time 7000'],
      ['merge-delay-ms 5000', 'time 7000'],
      ['time 07000', 'merge-delay-ms 5000'],
      ['time 7000', 'merge-delay-ms -1'],
      ['time 7000', 'merge-delay-ms 5000', 'x'],
      ['time  7000', 'merge-delay-ms 5000'],
    ])
      expect(readPromise({ ...base, extensions }), extensions.join('|')).toBeNull();
    expect(() => promiseLines({ time: 1.5, mergeDelayMs: 0 })).toThrow(RangeError);
  });
});

describe('strict documents', () => {
  it('/keys: refuses wrong ids, bad keys, duplicates, extra fields, reversed validity', () => {
    const good = publishKey(key, 10, null);
    const cases: [unknown, string][] = [
      ['[', 'not_json'],
      [{ keys: {} }, 'bad_field'],
      [{ keys: [], more: 1 }, 'unknown_field'],
      [{ keys: [{ ...good, keyId: '00000000' }] }, 'bad_field'],
      [{ keys: [{ ...good, origin: 'route-service/z' }] }, 'bad_field'],
      [{ keys: [{ ...good, publicKey: good.publicKey.replace('=', '') }] }, 'bad_field'],
      [{ keys: [{ ...good, notAfter: 10 }] }, 'bad_field'],
      [{ keys: [{ ...good, comment: 'x' }] }, 'unknown_field'],
      [{ keys: [good, good] }, 'duplicate_key'],
      [{ keys: Array.from({ length: 1025 }, () => good) }, 'too_large'],
      ['x'.repeat(300_000), 'too_large'],
    ];
    for (const [doc, code] of cases)
      expect(parseKeysDocument(doc), code).toMatchObject({ ok: false, error: { code } });
  });

  it('proofs: refuses long paths, bad hashes, index past size, sizes out of order', () => {
    const p = inclusionProofJson(log(4).proof(1));
    const cases: [unknown, string][] = [
      [{ ...p, inclusionPath: Array.from({ length: 129 }, () => p.inclusionPath[0]) }, 'too_large'],
      [{ ...p, inclusionPath: ['AAAA'] }, 'bad_field'],
      [{ ...p, leafIndex: 4 }, 'bad_field'],
      [{ ...p, checkpoint: 7 }, 'bad_field'],
      [{ ...p, extra: true }, 'unknown_field'],
      [null, 'not_object'],
    ];
    for (const [doc, code] of cases)
      expect(parseInclusionProof(doc), code).toMatchObject({ ok: false, error: { code } });
    expect(parseConsistencyProof({ origin: ORIGIN, from: 5, to: 4, consistencyPath: [] })).toMatchObject({
      error: { code: 'bad_field', field: 'from' },
    });
  });
});
