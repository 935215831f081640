import {
  decodeReceipt,
  leafHash,
  openCheckpoint,
  parseConsistencyProof,
  parseInclusionProof,
  parseKeysDocument,
  readPromise,
  verifyConsistency,
  verifyReceiptInclusion,
  type TrustedKey,
} from '@app/transparency';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_DEFAULTS } from '@app/config';
import { recordText } from './support/journal-record';
import { startTestServer, type TestServer } from './support/server';

// The origin's transparency log as a client meets it: quotes with receipts become leaves, a signed
// checkpoint covers them, GET /receipts/{id}/proof proves a record under it, consistency proofs
// join two checkpoints, and hostile queries get a JSON 400 or 404, never a 5xx.
const Q = '/route?from=USDT&to=BTC&amountIn=150&strategy=split_optimal&bridges=';
const SIGNING = { receipts: { ...SERVER_DEFAULTS.receipts, attach: true } };

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function keysOf(s: TestServer): Promise<TrustedKey[]> {
  const keys = parseKeysDocument(await (await fetch(`${s.url}/keys`)).json());
  if (!keys.ok) throw new Error('GET /keys does not parse');
  return keys.value;
}

async function quote(s: TestServer, id: string): Promise<string> {
  const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': id } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get('x-quote-receipt')!;
}

describe('the transparency log of one origin', () => {
  it('proves a quote record under a signed checkpoint, and two checkpoints consistent', async () => {
    const s = await startTestServer(SIGNING);
    servers.push(s);
    const keys = await keysOf(s);
    const verifiers = keys.map((k) => k.verifier);
    const origin = SERVER_DEFAULTS.receipts.origin;

    const before = await fetch(`${s.url}/checkpoint`);
    expect(before.status).toBe(404);
    const header = await quote(s, 'tlog-1');
    await quote(s, 'tlog-2');
    // Not checkpointed yet: the proof is not there, and says so.
    await s.server.journal.flush();
    const early = await fetch(`${s.url}/receipts/tlog-1/proof`);
    expect(early.status).toBe(404);
    expect(((await early.json()) as { error: string }).error).toMatch(/tlog-1/);

    await s.server.tlog!.checkpoint();
    const cpRes = await fetch(`${s.url}/checkpoint`);
    expect(cpRes.status).toBe(200);
    expect(cpRes.headers.get('content-type')).toMatch(/^text\/plain/);
    const first = openCheckpoint(await cpRes.text(), origin, verifiers);
    if (!first.ok) throw new Error(`checkpoint does not open: ${first.detail}`);
    expect(first.checkpoint.size).toBe(2);
    expect(readPromise(first.checkpoint)?.mergeDelayMs).toBe(SERVER_DEFAULTS.receipts.mergeDelayMs);

    const proofRes = await fetch(`${s.url}/receipts/tlog-1/proof`);
    expect(proofRes.status).toBe(200);
    const proof = parseInclusionProof(await proofRes.json());
    if (!proof.ok) throw new Error(proof.error.detail);
    const receipt = decodeReceipt(header);
    if (!receipt.ok) throw new Error('receipt does not decode');
    const record = Buffer.from(await recordText(s.dataDir, 'tlog-1'), 'utf8');
    expect(verifyReceiptInclusion(receipt.value, proof.value, keys, leafHash(record))).toEqual({ ok: true });
    // Another record's hash at that leaf does not verify.
    const other = Buffer.from(await recordText(s.dataDir, 'tlog-2'), 'utf8');
    expect(verifyReceiptInclusion(receipt.value, proof.value, keys, leafHash(other))).toMatchObject({
      ok: false,
      failure: 'inclusion_failed',
    });

    for (let i = 3; i <= 7; i++) await quote(s, `tlog-${i}`);
    await s.server.journal.flush();
    await s.server.tlog!.checkpoint();
    const second = openCheckpoint(await (await fetch(`${s.url}/checkpoint`)).text(), origin, verifiers);
    if (!second.ok) throw new Error('second checkpoint does not open');
    expect(second.checkpoint.size).toBe(7);
    const cons = parseConsistencyProof(
      await (await fetch(`${s.url}/checkpoint/consistency?from=2&to=7`)).json(),
    );
    if (!cons.ok) throw new Error(cons.error.detail);
    expect(
      verifyConsistency(2, 7, first.checkpoint.root, second.checkpoint.root, cons.value.consistencyPath),
    ).toEqual({ ok: true });
  });

  it('refuses hostile queries with a JSON 400 or 404', async () => {
    const s = servers[0]!;
    const cases: [string, number][] = [
      ['/checkpoint/consistency', 400],
      ['/checkpoint/consistency?from=0&to=2', 400],
      ['/checkpoint/consistency?from=3&to=2', 400],
      ['/checkpoint/consistency?from=01&to=2', 400],
      ['/checkpoint/consistency?from=1&to=99999999999999999999', 400],
      ['/checkpoint/consistency?from=1&to=8', 404],
      // Past 2^53 - 1 but within the documented 16 digits: a size not signed, not a bad one.
      ['/checkpoint/consistency?from=87830967838&to=9215014310487488', 404],
      ['/checkpoint/consistency?from=9215014310487488&to=9215014310487489', 404],
      ['/checkpoint/consistency?from=9215014310487488&to=2', 400],
      ['/checkpoint/consistency?from=1&to=2&x=1', 400],
      ['/checkpoint/consistency?from=1&from=2&to=2', 400],
      ['/checkpoint/consistency?from=-1&to=2', 400],
      // The edge bounds the request target before any controller reads it.
      [`/receipts/${'a'.repeat(201)}/proof`, 414],
      ['/receipts/a%20b/proof', 400],
      ['/receipts/no-such-quote/proof', 404],
      ['/receipts/%00/proof', 400],
    ];
    for (const [path, status] of cases) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(status);
      expect(typeof ((await res.json()) as { error: unknown }).error, path).toBe('string');
    }
  });

  it('without RECEIPTS there is no log: every endpoint says so with a 404', async () => {
    const s = await startTestServer();
    servers.push(s);
    expect(s.server.tlog).toBeNull();
    for (const path of ['/checkpoint', '/checkpoint/consistency?from=1&to=1', '/receipts/x/proof']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: string }).error).toMatch(/RECEIPTS is off/);
    }
  });
});
