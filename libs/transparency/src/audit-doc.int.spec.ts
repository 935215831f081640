import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoint } from './checkpoint';
import { fromBase64 } from './encoding';
import { parseKeysDocument } from './keys';
import { parseVerifierKey } from './note-key';
import { parseConsistencyProof, parseInclusionProof } from './proof-json';
import { receiptJson } from './receipt';
import { parseReceipt } from './receipt-decode';
import { verifyReceiptSignatures } from './receipt-verify';
import { verifyConsistency, verifyInclusion } from './verify';

// docs/audit.md's examples are what a third party codes against: each must verify as printed.
const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'audit.md'), 'utf8');
const blocks = [...doc.matchAll(/```(?:json)?\n([\s\S]*?)```/g)].map((m) => m[1]!);
const find = (start: string): string => {
  const b = blocks.find((x) => x.startsWith(start));
  if (b === undefined) throw new Error(`docs/audit.md has no example starting ${start}`);
  return b;
};
const grab = (re: RegExp): string => {
  const m = re.exec(doc);
  if (m === null) throw new Error(`docs/audit.md lacks ${String(re)}`);
  return m[1]!;
};

describe('docs/audit.md examples', () => {
  const keys = parseKeysDocument({ keys: [JSON.parse(grab(/Its `\/keys` entry: `([^`]+)`/)) as unknown] });
  const trusted = keys.ok ? keys.value : [];

  it('the receipt is canonical and its signatures verify with the /keys entry', () => {
    expect(keys.ok).toBe(true);
    const text = find('{"v":1,').trim();
    const r = parseReceipt(JSON.parse(text));
    expect(r.ok && receiptJson(r.value)).toBe(text);
    expect(r.ok && verifyReceiptSignatures(r.value, trusted)).toEqual({ ok: true });
  });

  it('the checkpoint opens with the verifier key text, and both proofs verify under it', () => {
    const vkey = parseVerifierKey(grab(/e\.g\. `(route-service\/rfc8032-test1\+[^`]+)`/))!;
    expect(vkey.publicKey).toEqual(trusted[0]!.verifier.publicKey);
    const cp = openCheckpoint(find('route-service/rfc8032-test1\n8\n'), vkey.name, [vkey]);
    if (!cp.ok) throw new Error(cp.detail);
    const inclusion = parseInclusionProof(JSON.parse(find('{\n  "origin"')) as unknown);
    if (!inclusion.ok) throw new Error(inclusion.error.detail);
    const p = inclusion.value;
    expect(openCheckpoint(p.checkpoint, vkey.name, [vkey]).ok).toBe(true);
    const leaf = fromBase64(grab(/leaf hash is\s+`([^`]+)`/), 32)!;
    expect(verifyInclusion(p.leafIndex, p.treeSize, leaf, p.inclusionPath, cp.checkpoint.root)).toEqual({
      ok: true,
    });
    const cons = parseConsistencyProof(
      JSON.parse(blocks.find((b) => b.includes('"consistencyPath"'))!) as unknown,
    );
    if (!cons.ok) throw new Error(cons.error.detail);
    const root3 = fromBase64(grab(/3 leaves has root `([^`]+)`/), 32)!;
    const c = cons.value;
    expect(verifyConsistency(c.from, c.to, root3, cp.checkpoint.root, c.consistencyPath)).toEqual({
      ok: true,
    });
  });
});
