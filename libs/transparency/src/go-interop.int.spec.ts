import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInterop, type Interop } from '../test/go-interop';
import { someLeaves, SparseTree } from '../test/reference';
import { signCheckpoint } from './checkpoint';
import { toBase64 } from './encoding';
import { leafHash } from './hash';
import { MemoryHashColumn } from './hash-column';
import { HashTree } from './hash-tree';
import { openNote, signNote } from './note';
import { formatVerifierKey, parseVerifierKey, signingKeyFromSeed } from './note-key';
import {
  assemble,
  consistencyPlan,
  inclusionPlan,
  mergeNodes,
  rootNodes,
  type ProofPlan,
} from './proof-plan';
import type { NodeId } from './tree-math';

const b64 = (bytes: readonly Uint8Array[]): string[] => bytes.map(toBase64);
const HUGE: [number, number][] = [
  [2 ** 32 + 5, 2 ** 33 + 7],
  [2 ** 32 - 1, 2 ** 32 + 1],
  [2 ** 40 + 12345, 2 ** 41 - 3],
  [2 ** 53 - 2, 2 ** 53 - 1],
];

let go: Interop;
beforeAll(() => {
  go = buildInterop();
}, 300_000);
afterAll(() => go?.remove());

describe('RFC 6962 against transparency-dev/merkle', () => {
  it('leaf hashes, every perfect subtree and every root of its eight-leaf test tree', () => {
    const { out } = go.run('constants', {});
    const inputs = (out.leafInputs as string[]).map((s) => Buffer.from(s, 'base64'));
    const tree = new HashTree({ stride: 2, column: () => new MemoryHashColumn() });
    const roots = [toBase64(tree.root())];
    for (const data of inputs) {
      tree.append(leafHash(data));
      roots.push(toBase64(tree.root()));
    }
    expect(roots).toEqual(out.roots);
    const levels = out.nodeHashes as string[][];
    levels.forEach((hashes, level) =>
      hashes.forEach((h, index) =>
        expect(toBase64(tree.node({ level, index })!), `${level}/${index}`).toBe(h),
      ),
    );
  });

  it("inclusion and consistency proofs equal its reference tree's for every index and pair of sizes up to 40", () => {
    const leaves = someLeaves(40, 7);
    const { out } = go.run('reference', { leaves: b64(leaves) });
    const tree = new HashTree({ column: () => new MemoryHashColumn() });
    for (const leaf of leaves) tree.append(leaf);
    const inclusion = out.inclusion as Record<string, string[]>;
    const consistency = out.consistency as Record<string, string[]>;
    expect(Object.keys(inclusion)).toHaveLength(820);
    for (const [key, path] of Object.entries(inclusion)) {
      const [i, n] = key.split('/').map(Number) as [number, number];
      const ours = tree.inclusion(i, n);
      expect(ours.ok && b64(ours.value), key).toEqual(path);
    }
    for (const [key, path] of Object.entries(consistency)) {
      const [m, n] = key.split('/').map(Number) as [number, number];
      const ours = tree.consistency(m, n);
      expect(ours.ok && b64(ours.value), key).toEqual(path);
    }
    expect(
      (out.roots as string[]).map(
        (r, n) => (tree.rootAt(n) as { value: Buffer }).value.toString('base64') === r,
      ),
    ).not.toContain(false);
  });

  it("the nodes a proof reads, for sizes past 2^32 up to 2^53 - 1, equal its proof package's", () => {
    const pairs: [number, number][] = [...HUGE, [5, 7], [6, 7], [0, 1], [10, 15], [24, 31], [81, 95]];
    const { out } = go.run('plans', {
      inclusionPlans: pairs.map(([i, n]) => [String(i), String(n)]),
      consistencyPlans: pairs.filter(([m]) => m > 0).map(([m, n]) => [String(m), String(n)]),
    });
    const flat = (plan: ProofPlan) => {
      // Go lists the one multi-node element right to left and says where it sits.
      let begin = 0;
      let end = 0;
      const ids: { level: number; index: string }[] = [];
      for (const nodes of plan.elements) {
        if (nodes.length > 1) [begin, end] = [ids.length, ids.length + nodes.length];
        for (const id of [...nodes].reverse()) ids.push({ level: id.level, index: String(id.index) });
      }
      return { ids, begin, end };
    };
    // Go also marks a one-node border as a span to rehash, which is a no-op: count only real ones.
    type GoPlan = { ids: unknown[]; begin: number; end: number };
    const spans = (plans: unknown) =>
      (plans as GoPlan[]).map((p) => (p.end - p.begin > 1 ? p : { ...p, begin: 0, end: 0 }));
    expect(pairs.map(([i, n]) => flat(inclusionPlan(i, n)))).toEqual(spans(out.inclusion));
    expect(pairs.filter(([m]) => m > 0).map(([m, n]) => flat(consistencyPlan(m, n)))).toEqual(
      spans(out.consistency),
    );
  });
});

describe('signed notes against golang.org/x/mod/sumdb/note', () => {
  it('its own known answers (sumdb/note/note_test.go) open and sign with our code', () => {
    const src = go.moduleFile('golang.org/x/mod', 'sumdb/note/note_test.go');
    const grab = (re: RegExp): string => {
      const m = re.exec(src);
      if (m === null) throw new Error(`note_test.go no longer has ${String(re)}`);
      return m[1]!;
    };
    const peterKey = grab(/peterKey := "(PeterNeumann\+[^"]+)"/);
    const enochKey = grab(/enochKey := "(EnochRoot\+[^"]+)"/);
    const seed64 = grab(/skey := "PRIVATE\+KEY\+PeterNeumann\+c74f20a3\+([^"]+)"/);
    const text = grab(/text := `([^`]+)`/);
    const peterSig = grab(/peterSig := "([^"]+)\\n"/);
    const enochSig = grab(/enochSig := "([^"]+)\\n"/);
    const peter = parseVerifierKey(peterKey)!;
    const enoch = parseVerifierKey(enochKey)!;
    expect(peter.keyId).toBe(0xc74f20a3);
    expect(enoch.keyId).toBe(0xaf0cfe78);
    const signed = `${text}\n${peterSig}\n${enochSig}\n`;
    const one = openNote(signed, [peter]);
    expect(one.ok && [one.text, one.verified.map((s) => s.name), one.unverified.map((s) => s.name)]).toEqual([
      text,
      ['PeterNeumann'],
      ['EnochRoot'],
    ]);
    expect(openNote(signed, [peter, enoch]).ok).toBe(true);
    expect(openNote(signed.replace('problem,', 'problem;'), [peter])).toMatchObject({
      failure: 'bad_signature',
    });
    const seed = Buffer.from(seed64, 'base64').subarray(1);
    expect(signNote(text, [signingKeyFromSeed('PeterNeumann', seed)])).toBe(`${text}\n${peterSig}\n`);
  });

  it('it signs a checkpoint byte for byte as we do, from a key in its own format', () => {
    const key = signingKeyFromSeed('route-service/interop', Buffer.alloc(32, 5));
    const text = `route-service/interop\n3\n${toBase64(Buffer.alloc(32, 1))}\n`;
    const skey = `PRIVATE+KEY+${key.name}+${key.keyId.toString(16).padStart(8, '0')}+${toBase64(Buffer.concat([Buffer.from([1]), Buffer.alloc(32, 5)]))}`;
    expect(go.run('sign', { signerKey: skey, text }).out.note).toBe(signNote(text, [key]));
  });
});

describe('Go verifies what this library produces', () => {
  const key = signingKeyFromSeed('route-service/interop', Buffer.alloc(32, 6));

  /** Checkpoints of a real 1000-leaf tree and of sparse trees past 2^32, with proofs under them. */
  function request() {
    const checkpoints: string[] = [];
    const inclusions: { checkpoint: number; leafIndex: string; leafHash: string; path: string[] }[] = [];
    const consistencies: { from: number; to: number; path: string[] }[] = [];
    const tree = new HashTree({ column: () => new MemoryHashColumn() });
    const leaves = someLeaves(1000, 3);
    for (const leaf of leaves) tree.append(leaf);
    const value = <T>(r: { ok: true; value: T } | { ok: false }): T => (r as { value: T }).value;
    for (const size of [700, 1000])
      checkpoints.push(
        signCheckpoint({ origin: key.name, size, root: value(tree.rootAt(size)), extensions: [] }, key),
      );
    for (const i of [0, 511, 699])
      inclusions.push({
        checkpoint: 0,
        leafIndex: String(i),
        leafHash: toBase64(leaves[i]!),
        path: b64(value(tree.inclusion(i, 700))),
      });
    consistencies.push({ from: 0, to: 1, path: b64(value(tree.consistency(700, 1000))) });
    for (const [a, b] of HUGE) {
      const sparse = new SparseTree(b, [a - 1, a, b - 1]);
      const node = (id: NodeId) => sparse.node(id)!;
      const at = checkpoints.length;
      for (const size of [a, b])
        checkpoints.push(
          signCheckpoint(
            { origin: key.name, size, root: mergeNodes(rootNodes(size).map(node)), extensions: [] },
            key,
          ),
        );
      inclusions.push({
        checkpoint: at + 1,
        leafIndex: String(a),
        leafHash: toBase64(sparse.leaf(a)),
        path: b64(assemble(inclusionPlan(a, b), node)),
      });
      consistencies.push({ from: at, to: at + 1, path: b64(assemble(consistencyPlan(a, b), node)) });
    }
    return { verifierKey: formatVerifierKey(key), checkpoints, inclusions, consistencies };
  }

  it('every checkpoint, inclusion proof and consistency proof verifies', () => {
    const req = request();
    const { status, out } = go.run('verify', req);
    expect(out).toEqual({
      checkpoints: req.checkpoints.map(() => ''),
      inclusions: req.inclusions.map(() => ''),
      consistencies: req.consistencies.map(() => ''),
    });
    expect(status).toBe(0);
  });

  it('one changed byte in a checkpoint, an inclusion path or a consistency path fails there', () => {
    const flipByte = (h: string) => {
      const bytes = Buffer.from(h, 'base64');
      bytes[7] = bytes[7]! ^ 0x01;
      return bytes.toString('base64');
    };
    const req = request();
    // Checkpoint 8 is the old side of consistencies[4] only; no inclusion proof uses it.
    const cp = req.checkpoints[8]!;
    const rootLine = cp.split('\n')[2]!;
    req.checkpoints[8] = cp.replace(rootLine, flipByte(rootLine));
    req.inclusions[1]!.path[4] = flipByte(req.inclusions[1]!.path[4]!);
    req.consistencies[2]!.path[0] = flipByte(req.consistencies[2]!.path[0]!);
    const { status, out } = go.run('verify', req);
    expect(status).toBe(1);
    const failed = (list: unknown) => (list as string[]).flatMap((e, i) => (e === '' ? [] : [i]));
    expect(failed(out.checkpoints)).toEqual([8]);
    expect((out.checkpoints as string[])[8]).toMatch(/invalid signature/);
    expect(failed(out.inclusions)).toEqual([1]);
    expect(failed(out.consistencies)).toEqual([2, 4]);
  });
});
