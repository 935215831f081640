import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLOG } from '@app/events';
import { EmbeddedLog } from '@app/event-log';
import {
  leafHash,
  openCheckpoint,
  signingKeyFromSeed,
  verifierKey,
  verifyConsistency,
  verifyInclusion,
} from '@app/transparency';
import { afterEach, describe, expect, it } from 'vitest';
import { OriginLog } from './origin-log';
import { readOriginTree } from './origin-tree';
import { encodeTlogEntry } from './tlog-entry';

const key = signingKeyFromSeed('route-service/t', Buffer.alloc(32, 7));
const verifiers = [verifierKey(key.name, key.publicKey)!];
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(dataDir: string, now = () => 1_000_000): Promise<{ log: EmbeddedLog; tlog: OriginLog }> {
  const log = new EmbeddedLog({ dataDir });
  return OriginLog.open({ log, key, mergeDelayMs: 10_000, now }).then((tlog) => ({ log, tlog }));
}

const records = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `q-${from + i}`, value: `{"requestId":"q-${from + i}"}` }));

describe('OriginLog on the embedded log', () => {
  it('signs checkpoints over the records in their order, and a restart continues the same tree', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tlog-'));
    dirs.push(dataDir);
    const a = await open(dataDir);
    a.tlog.appended('quotes', records(0, 3));
    const cp1 = await a.tlog.checkpoint();
    expect(cp1?.checkpoint.size).toBe(3);
    const found = a.tlog.lookup('q-1');
    expect(found).toMatchObject({ state: 'proven', leafIndex: 1 });
    const path = a.tlog.hashes.inclusion(1, 3);
    if (!path.ok) throw new Error('no path');
    expect(
      verifyInclusion(1, 3, leafHash(Buffer.from('{"requestId":"q-1"}')), path.value, cp1!.checkpoint.root),
    ).toEqual({ ok: true });
    a.tlog.appended('stream', records(3, 2));
    a.tlog.close();
    await a.log.close();

    // Leaves accepted but never checkpointed are lost with the process: the tree restarts at 3.
    const b = await open(dataDir);
    expect(b.tlog.size).toBe(3);
    expect(b.tlog.latest?.note).toBe(cp1!.note);
    b.tlog.appended('quotes', records(5, 4));
    const cp2 = await b.tlog.checkpoint();
    expect(cp2?.checkpoint.size).toBe(7);
    const cons = b.tlog.hashes.consistency(3, 7);
    if (!cons.ok) throw new Error('no path');
    expect(verifyConsistency(3, 7, cp1!.checkpoint.root, cp2!.checkpoint.root, cons.value)).toEqual({
      ok: true,
    });
    expect(b.tlog.lookup('q-3')).toEqual({ state: 'unknown' });
    expect(b.tlog.lookup('q-8')).toMatchObject({ state: 'proven', leafIndex: 6 });
    b.tlog.close();
    await b.log.close();

    // An auditor reads it all back with the public key only: every checkpoint fits its tree.
    const reader = new EmbeddedLog({ dataDir, readOnly: true });
    const read = await readOriginTree(reader, key.name, { keys: verifiers, keepLeaves: true });
    expect(read.problems).toEqual([]);
    expect(read.checkpoints.map((c) => c.checkpoint.size)).toEqual([3, 7]);
    expect(read.leaves.map((l) => `${l.topic}:${l.key}`)).toEqual([
      'quotes:q-0',
      'quotes:q-1',
      'quotes:q-2',
      'quotes:q-5',
      'quotes:q-6',
      'quotes:q-7',
      'quotes:q-8',
    ]);
    for (const c of read.checkpoints) expect(openCheckpoint(c.note, key.name, verifiers).ok).toBe(true);
    await reader.close();
  });

  it('no new leaves and an unmoving clock: no new checkpoint; a repeated leaves entry is read once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tlog-'));
    dirs.push(dataDir);
    const a = await open(dataDir);
    a.tlog.appended('quotes', records(0, 2));
    const cp = await a.tlog.checkpoint();
    expect(await a.tlog.checkpoint()).toBe(cp);
    expect((await a.log.highWatermarks(TLOG))[0]).toBe(2);
    // A retried append that wrote its leaves twice.
    const again = encodeTlogEntry({
      type: 'tlog_leaves',
      origin: key.name,
      from: 0,
      leaves: records(0, 2).map((r) => ({
        topic: 'quotes',
        key: r.key,
        hash: leafHash(Buffer.from(r.value)),
      })),
    });
    await a.log.append(TLOG, [{ key: key.name, value: again }]);
    a.tlog.close();
    await a.log.close();
    const b = await open(dataDir);
    expect(b.tlog.size).toBe(2);
    b.tlog.close();
    await b.log.close();
  });

  it('a tlog whose leaves were changed under a checkpoint is refused at start: no signing on a fork', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tlog-'));
    dirs.push(dataDir);
    const log = new EmbeddedLog({ dataDir });
    const leaves = records(0, 2).map((r) => ({
      topic: 'quotes' as const,
      key: r.key,
      hash: leafHash(Buffer.from(r.value)),
    }));
    const a = await OriginLog.open({ log, key, mergeDelayMs: 10_000, now: () => 1 });
    a.appended('quotes', records(0, 2));
    const cp = await a.checkpoint();
    // Someone rewrites the tlog: other leaves, then the old checkpoint again.
    const forged = [...leaves].reverse();
    await log.append(TLOG, [
      {
        key: key.name,
        value: encodeTlogEntry({ type: 'tlog_leaves', origin: key.name, from: 2, leaves: forged }),
      },
      {
        key: key.name,
        value: encodeTlogEntry({
          type: 'tlog_checkpoint',
          origin: key.name,
          note: cp!.note.replace('\n2\n', '\n4\n'),
        }),
      },
    ]);
    await expect(OriginLog.open({ log, key, mergeDelayMs: 10_000, now: () => 1 })).rejects.toThrow(
      /does not fit together/,
    );
    await log.close();
  });

  it('keeps signing until a checkpoint signed the merge delay after the last leaf promises it, then stops; no promise when told not to', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tlog-'));
    dirs.push(dataDir);
    const log = new EmbeddedLog({ dataDir });
    let now = 1_000_000;
    let healthy = true;
    const tlog = await OriginLog.open({
      log,
      key,
      mergeDelayMs: 10_000,
      now: () => now,
      promiseKept: () => healthy,
    });
    tlog.appended('quotes', records(0, 1));
    const first = await tlog.checkpoint();
    expect(first?.checkpoint.extensions).toEqual(['time 1000000', 'merge-delay-ms 10000']);
    now += 5_000; // not yet the merge delay after the leaf: a fresher promise is still owed
    const second = await tlog.checkpoint();
    expect(second).not.toBe(first);
    now += 6_000; // 11 s after the leaf: this one covers it
    const third = await tlog.checkpoint();
    expect(third).not.toBe(second);
    now += 5_000;
    expect(await tlog.checkpoint()).toBe(third);
    // A round after failed appends signs the new leaves without the promise lines.
    healthy = false;
    tlog.appended('quotes', records(1, 1));
    const unpromised = await tlog.checkpoint();
    expect(unpromised?.checkpoint.size).toBe(2);
    expect(unpromised?.checkpoint.extensions).toEqual([]);
    tlog.close();
    await log.close();
  });
});
