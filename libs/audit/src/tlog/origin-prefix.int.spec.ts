import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLOG } from '@app/events';
import { EmbeddedLog, type AppendEntry } from '@app/event-log';
import {
  HashTree,
  leafHash,
  MemoryHashColumn,
  signCheckpoint,
  signingKeyFromSeed,
  treePrefix,
  verifierKey,
} from '@app/transparency';
import { afterEach, describe, expect, it } from 'vitest';
import { OriginLog } from './origin-log';
import { readOriginTree } from './origin-tree';
import { encodeTlogEntry, type LeafRef, type TlogEntry } from './tlog-entry';
import { prefixParts, type TlogPrefix } from './tlog-prefix';

const key = signingKeyFromSeed('route-service/p', Buffer.alloc(32, 5));
const verifiers = [verifierKey(key.name, key.publicKey)!];
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const leaf = (i: number): LeafRef => ({
  topic: 'quotes',
  key: `q-${i}`,
  hash: leafHash(Buffer.from(`q-${i}`)),
});

async function logOf(entries: readonly TlogEntry[]): Promise<EmbeddedLog> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tlog-prefix-'));
  dirs.push(dataDir);
  const log = new EmbeddedLog({ dataDir });
  const out: AppendEntry[] = entries.map((e) => ({ key: key.name, value: encodeTlogEntry(e) }));
  await log.append(TLOG, out);
  return log;
}

/** The tlog of an origin whose leaves before 10 are gone: its prefix at 10, the checkpoint of 10, two leaves, the checkpoint of 12. */
function trimmed(edit: (p: TlogPrefix) => TlogPrefix = (p) => p): TlogEntry[] {
  const tree = new HashTree({ column: () => new MemoryHashColumn() });
  for (let i = 0; i < 10; i++) tree.append(leaf(i).hash);
  const nodes = treePrefix(tree, 10, [3, 7]);
  if (!nodes.ok) throw new Error('no prefix');
  const cp = (size: number) => ({
    type: 'tlog_checkpoint' as const,
    origin: key.name,
    note: signCheckpoint({ origin: key.name, size, root: tree.root(), extensions: [] }, key),
  });
  const at10 = cp(10);
  tree.append(leaf(10).hash);
  tree.append(leaf(11).hash);
  return [
    ...prefixParts(key.name, edit({ size: 10, checkpoints: [3, 7], nodes: nodes.value })),
    at10,
    { type: 'tlog_leaves', origin: key.name, from: 10, leaves: [leaf(10), leaf(11)] },
    cp(12),
  ];
}

describe('a tlog that starts at a prefix', () => {
  it('reads as the tree past the prefix, its checkpoints checked against the prefix', async () => {
    const log = await logOf(trimmed());
    const read = await readOriginTree(log, key.name, { keys: verifiers, keepLeaves: true });
    expect(read.problems).toEqual([]);
    expect([read.firstLeaf, read.tree.size, read.checkpoints.length]).toEqual([10, 12, 2]);
    expect(read.leaves.map((l) => l.key)).toEqual(['q-10', 'q-11']);
    expect(read.checkpointSizes).toEqual([3, 7, 10, 12]);
    await log.close();
  });

  it('a prefix with a node changed gives other roots: the checkpoint after it is named', async () => {
    const log = await logOf(
      trimmed((p) => {
        const nodes = p.nodes.map(([id, h]) => [id, Buffer.from(h)] as const);
        nodes[nodes.length - 1]![1][0]! ^= 1; // the highest node: part of every root from 8 on
        return { ...p, nodes };
      }),
    );
    const read = await readOriginTree(log, key.name, { keys: verifiers });
    expect(read.problems[0]).toMatch(/checkpoint of 10 leaves: its root is not the root/);
    await log.close();
  });

  it('a prefix lacking a node of its own root is named, not thrown', async () => {
    const log = await logOf(trimmed((p) => ({ ...p, nodes: p.nodes.slice(0, -1) })));
    const read = await readOriginTree(log, key.name, { keys: verifiers });
    expect(read.problems[0]).toMatch(/prefix of 10 leaves lacks node 3\/0 of its root/);
    await log.close();
  });

  it('the service writes a prefix every N leaves and restarts from the newest one when enough leaves follow it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tlog-prefix-'));
    dirs.push(dataDir);
    // recentKeys 4: from a prefix when at least 2 leaves follow it (the lookup's newest keys).
    const open = async (recentKeys = 4) => {
      const log = new EmbeddedLog({ dataDir });
      const tlog = await OriginLog.open({
        log,
        key,
        mergeDelayMs: 10_000,
        now: () => 1,
        prefixEveryLeaves: 4,
        recentKeys,
      });
      return { log, tlog };
    };
    const a = await open();
    const records = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `r-${from + i}`, value: `{"requestId":"r-${from + i}"}` }));
    for (let round = 0; round < 5; round++) {
      a.tlog.appended('quotes', records(round * 3, 3));
      await a.tlog.checkpoint();
    }
    a.tlog.close();
    await a.log.close();
    const b = await open();
    // Prefixes at 6 (6 - 0 >= 4) and 12 (12 - 6 >= 4); the restart starts at the newest.
    expect([b.tlog.hashes.firstLeaf, b.tlog.size]).toEqual([12, 15]);
    expect(b.tlog.lookup('r-13')).toMatchObject({ state: 'proven', leafIndex: 13 });
    expect(b.tlog.lookup('r-2')).toEqual({ state: 'unknown' });
    for (const m of [3, 6, 9, 12]) expect(b.tlog.hashes.consistency(m, 15).ok).toBe(true);
    // A prefix written by the restarted process (at 18: 18 - 12 >= 4) keeps every older size too.
    b.tlog.appended('quotes', records(15, 3));
    await b.tlog.checkpoint();
    const mid = await readOriginTree(b.log, key.name, { keys: verifiers, from: 'prefix' });
    expect([mid.problems, mid.firstLeaf, mid.checkpointSizes]).toEqual([[], 18, [3, 6, 9, 12, 15, 18]]);
    for (const m of [3, 6, 9, 12, 15]) expect(mid.tree.consistency(m, 18).ok).toBe(true);
    // The auditor reads the whole log: every prefix met after its leaves must fit them.
    const all = await readOriginTree(b.log, key.name, { keys: verifiers });
    expect([all.problems, all.firstLeaf, all.tree.size]).toEqual([[], 0, 18]);
    b.tlog.close();
    await b.log.close();
    // Fewer leaves after the newest prefix than the lookup must hold: read from the start instead.
    const c = await open(20);
    expect([c.tlog.hashes.firstLeaf, c.tlog.size]).toEqual([0, 18]);
    expect(c.tlog.lookup('r-2')).toMatchObject({ state: 'proven', leafIndex: 2 });
    c.tlog.close();
    await c.log.close();
  });
});
