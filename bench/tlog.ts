/**
 * `npm run bench -- tlog`: the transparency core's own costs, in one process, no server: CPU per
 * receipt signed (SHA-256 of a 2 KB response, two Ed25519 signatures, base64url JSON) and per
 * receipt decoded and verified; then a log of 1,000,000 leaves: append time, checkpoint cost
 * (root at a past size from the store, and signing), proof sizes (hashes and JSON bytes with the
 * signed checkpoint) and CPU to build and to verify an inclusion and a consistency proof.
 */
import {
  decodeReceipt,
  encodeReceipt,
  HashTree,
  inclusionProofJson,
  leafHash,
  MemoryHashColumn,
  openCheckpoint,
  opensslSigner,
  pemFromSeed,
  parseKeysDocument,
  publishKey,
  signCheckpoint,
  signingKeyFromSeed,
  signReceipt,
  verifyConsistency,
  verifyInclusion,
  verifyReceiptSignatures,
  type Hash,
} from '@app/transparency';
import { createPrivateKey } from 'node:crypto';
import { quantile, type BenchRow } from './bench-row';

const ORIGIN = 'route-service/bench';
const LEAVES = 1_000_000;

/** CPU microseconds per call of `fn`, p50 and p99 over `batches` batches of `per` calls. */
function cpuPerCall(fn: (i: number) => unknown, batches = 40, per = 50): { p50: number; p99: number } {
  for (let i = 0; i < per * 4; i++) fn(i); // warm-up
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < per; i++) fn(b * per + i);
    const t = process.cpuUsage(t0);
    samples.push((t.user + t.system) / per);
  }
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

export function benchTlog(): BenchRow[] {
  const rows: BenchRow[] = [];
  const row = (metric: string, value: number, unit: string) =>
    rows.push({ scenario: 'tlog', metric, value, unit });
  const key = signingKeyFromSeed(ORIGIN, Buffer.alloc(32, 1));
  const keys = parseKeysDocument({ keys: [publishKey(key, 0, null)] });
  if (!keys.ok) throw new Error(keys.error.detail);

  const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(2000) }));
  const record = leafHash(Buffer.from('{"type":"quote"}'));
  const input = (i: number) => ({
    requestId: `bench-${i}`,
    response: body,
    calculatedAt: 1.7e12 + i,
    recordHash: record,
    leafIndex: i,
  });
  const signed = cpuPerCall((i) => encodeReceipt(signReceipt(input(i), key)));
  row('receipt sign+encode CPU p50', signed.p50, 'us');
  row('receipt sign+encode CPU p99', signed.p99, 'us');
  const headers = Array.from({ length: 64 }, (_, i) => encodeReceipt(signReceipt(input(i), key)));
  row('receipt header', headers[0]!.length, 'chars');
  // The receipt's one signature alone: the rest of sign+encode is hashing the body and JSON.
  const text = Buffer.from(
    `route-service receipt v1\n${ORIGIN}\nbench-1\n${'A'.repeat(43)}\n2011\n1700000000000\n`,
  );
  row('one Ed25519 signature CPU p50 (libsodium)', cpuPerCall(() => key.sign(text)).p50, 'us');
  // The same signature through node:crypto (OpenSSL), the fallback where the addon cannot load.
  const openssl = opensslSigner(createPrivateKey({ key: pemFromSeed(Buffer.alloc(32, 1)), format: 'pem' }));
  row('one Ed25519 signature CPU p50 (node:crypto)', cpuPerCall(() => openssl(text)).p50, 'us');
  const verified = cpuPerCall((i) => {
    const d = decodeReceipt(headers[i % 64]!);
    if (!d.ok || !verifyReceiptSignatures(d.value, keys.value).ok) throw new Error('receipt did not verify');
  });
  row('receipt decode+verify CPU p50', verified.p50, 'us');
  row('receipt decode+verify CPU p99', verified.p99, 'us');

  const tree = new HashTree({ column: () => new MemoryHashColumn() });
  const leaves: Hash[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < LEAVES; i++) {
    const leaf = leafHash(Buffer.from(`record ${i}`));
    if (i % 1000 === 0) leaves.push(leaf);
    tree.append(leaf);
  }
  const c1 = process.cpuUsage(c0);
  row('1M leaves: hash+append CPU per leaf', (c1.user + c1.system) / LEAVES, 'us');

  const past = LEAVES - 12_345;
  const checkpoint = cpuPerCall(
    () => signCheckpoint({ origin: ORIGIN, size: past, root: ok(tree.rootAt(past)), extensions: [] }, key),
    20,
    20,
  );
  row('checkpoint, past size (root+sign) p50', checkpoint.p50, 'us');
  const current = cpuPerCall(
    () => signCheckpoint({ origin: ORIGIN, size: tree.size, root: tree.root(), extensions: [] }, key),
    20,
    20,
  );
  row('checkpoint, current size CPU p50', current.p50, 'us');

  const note = signCheckpoint({ origin: ORIGIN, size: LEAVES, root: tree.root(), extensions: [] }, key);
  const index = 123_000;
  const path = ok(tree.inclusion(index, LEAVES));
  row('1M: inclusion path', path.length, 'hashes');
  const json = JSON.stringify(
    inclusionProofJson({
      origin: ORIGIN,
      requestId: 'bench-1',
      leafIndex: index,
      treeSize: LEAVES,
      inclusionPath: path,
      checkpoint: note,
    }),
  );
  row('1M: inclusion proof JSON + checkpoint', Buffer.byteLength(json), 'bytes');
  row(
    '1M: inclusion proof build CPU p50',
    cpuPerCall((i) => tree.inclusion((i * 7919) % LEAVES, LEAVES), 20, 20).p50,
    'us',
  );
  const verifiers = keys.value.map((k) => k.verifier);
  const leaf = leaves[index / 1000]!;
  const inclusionVerify = cpuPerCall(() => {
    const cp = openCheckpoint(note, ORIGIN, verifiers);
    if (!cp.ok || !verifyInclusion(index, LEAVES, leaf, path, cp.checkpoint.root).ok)
      throw new Error('did not verify');
  });
  row('1M: checkpoint+inclusion verify CPU p50', inclusionVerify.p50, 'us');

  const from = 654_321;
  const cons = ok(tree.consistency(from, LEAVES));
  const root1 = ok(tree.rootAt(from));
  row('1M: consistency path from 654,321', cons.length, 'hashes');
  row(
    '1M: consistency build CPU p50',
    cpuPerCall((i) => tree.consistency(1 + ((i * 7919) % (LEAVES - 1)), LEAVES), 20, 20).p50,
    'us',
  );
  row(
    '1M: consistency verify CPU p50',
    cpuPerCall(() => verifyConsistency(from, LEAVES, root1, tree.root(), cons)).p50,
    'us',
  );
  return rows;
}

function ok<T>(r: { ok: true; value: T } | { ok: false }): T {
  if (!r.ok) throw new Error('the store lacks a node');
  return r.value;
}
