import { createHash } from 'node:crypto';
import { parseJournalEntryLine } from '@app/audit';
import {
  checkRecord,
  checkRecordedQuote,
  checkReplay,
  decodeReceipt,
  parseKeysDocument,
  verifyReceiptSignatures,
  type Receipt,
} from '@app/transparency';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_DEFAULTS } from '@app/config';
import { recordText } from './support/journal-record';
import { startTestServer, type TestServer } from './support/server';
import { ofType, openV2, resultText } from './support/stream-v2';
import { startWithJournalDown } from './support/journal-down';

// The receipt as a client meets it: a header on each GET/POST /route answer that an auditor checks
// against GET /keys, the body bytes it received, and the journal record the log holds.
const Q = '/route?from=USDT&to=BTC&amountIn=150&strategy=split_optimal&bridges=';

async function receiptOf(res: Response): Promise<{ receipt: Receipt; body: Buffer }> {
  const header = res.headers.get('x-quote-receipt');
  expect(header).not.toBeNull();
  const decoded = decodeReceipt(header!);
  if (!decoded.ok) throw new Error(`receipt does not decode: ${JSON.stringify(decoded)}`);
  return { receipt: decoded.value, body: Buffer.from(await res.arrayBuffer()) };
}

/** RECEIPTS=true. */
const SIGNING = { receipts: { ...SERVER_DEFAULTS.receipts, attach: true } };

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('x-quote-receipt on /route', () => {
  it('signs the exact body bytes; the key from GET /keys verifies it; the journal record is the one it names', async () => {
    const s = await startTestServer(SIGNING);
    servers.push(s);
    const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': 'receipt-1' } });
    expect(res.status).toBe(200);
    const { receipt, body } = await receiptOf(res);
    const keys = parseKeysDocument(await (await fetch(`${s.url}/keys`)).json());
    if (!keys.ok) throw new Error('GET /keys does not parse');
    expect(receipt).toMatchObject({ v: 1, requestId: 'receipt-1', bytes: body.length, terms: 'indicative' });
    expect(receipt.origin).toBe(SERVER_DEFAULTS.receipts.origin);
    expect(receipt.calculatedAt).toBe(
      (JSON.parse(body.toString('utf8')) as { calculatedAt: number }).calculatedAt,
    );
    expect(verifyReceiptSignatures(receipt, keys.value)).toEqual({ ok: true });
    expect(checkReplay(receipt, body)).toEqual({ ok: true });
    // One byte of the body changed: the receipt no longer matches it.
    const altered = Buffer.from(body);
    altered[altered.length - 2]! ^= 1;
    expect(checkReplay(receipt, altered)).toMatchObject({ ok: false, failure: 'replay_differs' });

    await s.server.journal.flush();
    const text = await recordText(s.dataDir, 'receipt-1');
    expect(checkRecord(receipt, Buffer.from(text, 'utf8'))).toEqual({ ok: true });
    const parsed = parseJournalEntryLine(text);
    if (!parsed.ok || parsed.record.type !== 'quote') throw new Error('not a quote record');
    const record = parsed.record;
    expect(
      checkRecordedQuote(receipt, {
        requestId: record.requestId,
        sha256: Buffer.from(record.responseSha256, 'hex'),
        bytes: record.responseBytes,
        calculatedAt: record.calculatedAt,
      }),
    ).toEqual({ ok: true });
    expect(record.responseSha256).toBe(createHash('sha256').update(body).digest('hex'));
    // The record as stored, changed by one byte, no longer hashes to the receipt's recordHash.
    const edited = text.replace('"receipt-1"', '"receipt-2"');
    expect(edited).not.toBe(text);
    expect(checkRecord(receipt, Buffer.from(edited, 'utf8'))).toMatchObject({
      ok: false,
      failure: 'record_altered',
    });
  });

  it('answers solved in one turn each carry the receipt of their own bytes and record', async () => {
    const s = await startTestServer(SIGNING);
    servers.push(s);
    const keys = parseKeysDocument(await (await fetch(`${s.url}/keys`)).json());
    if (!keys.ok) throw new Error('GET /keys does not parse');
    // Sixteen requests in flight at once on connections already open (a first round opens them),
    // so that they reach the service together: it solves those that arrive in one turn and makes
    // their receipts together after it; none may get another's.
    const ask = (id: string, i: number) =>
      fetch(`${s.url}${Q.replace('amountIn=150', `amountIn=${150 + i}`)}`, {
        headers: { 'x-request-id': id },
      });
    await Promise.all(Array.from({ length: 16 }, (_, i) => ask(`open-${i}`, i).then((r) => r.arrayBuffer())));
    const ids = Array.from({ length: 16 }, (_, i) => `batch-${i}`);
    const answers = await Promise.all(
      ids.map(async (id, i) => {
        const res = await ask(id, i);
        expect(res.status).toBe(200);
        return receiptOf(res);
      }),
    );
    await s.server.journal.flush();
    for (const [i, { receipt, body }] of answers.entries()) {
      expect(receipt.requestId).toBe(ids[i]);
      expect(receipt.bytes).toBe(body.length);
      expect(verifyReceiptSignatures(receipt, keys.value)).toEqual({ ok: true });
      expect(checkReplay(receipt, body)).toEqual({ ok: true });
      const text = await recordText(s.dataDir, ids[i]!);
      expect(checkRecord(receipt, Buffer.from(text, 'utf8'))).toEqual({ ok: true });
    }
    // Different amounts, different answers: a receipt swapped between two would not verify.
    expect(new Set(answers.map((a) => a.receipt.sha256)).size).toBe(ids.length);
  });

  it('JOURNAL_STRICT=true: a receipt leaves only once its record is in the log; a record the log refuses gets a 503 and no receipt', async () => {
    const s = await startTestServer({ ...SIGNING, journalStrict: true });
    servers.push(s);
    const ids = ['strict-r-1', 'strict-r-2', 'strict-r-3'];
    const answers = await Promise.all(
      ids.map(async (id) => receiptOf(await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': id } }))),
    );
    for (const [i, { receipt, body }] of answers.entries()) {
      expect(checkReplay(receipt, body)).toEqual({ ok: true });
      // Read at once, without flushing the journal: the record is already in the log.
      expect(checkRecord(receipt, Buffer.from(await recordText(s.dataDir, ids[i]!), 'utf8'))).toEqual({
        ok: true,
      });
    }

    const down = await startWithJournalDown({ ...SIGNING, journalStrict: true }, ['quotes']);
    try {
      const res = await fetch(`${down.url}${Q}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('x-quote-receipt')).toBeNull();
      expect(await res.json()).toEqual({ error: 'quote journal unavailable: disk full' });
    } finally {
      await down.close();
    }
  });

  it('a 404 answer is a quote too: it carries its receipt; a refused request (400) does not', async () => {
    const s = servers[0]!;
    const missing = await fetch(`${s.url}/route?from=FOO&to=BTC&amountIn=1`, {
      headers: { 'x-request-id': 'receipt-404' },
    });
    expect(missing.status).toBe(404);
    const { receipt, body } = await receiptOf(missing);
    expect(receipt.requestId).toBe('receipt-404');
    expect(checkReplay(receipt, body)).toEqual({ ok: true });
    const bad = await fetch(`${s.url}/route?from=USDT&to=BTC`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-quote-receipt')).toBeNull();
  });

  it('POST /route carries one as GET does; JOURNAL_RESPONSES=true names the record that holds the body', async () => {
    const s = await startTestServer({ ...SIGNING, journalResponses: true });
    servers.push(s);
    const res = await fetch(`${s.url}/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'receipt-post' },
      body: JSON.stringify({
        from: 'USDT',
        to: 'BTC',
        amountIn: 150,
        strategy: 'split_optimal',
        bridges: [],
      }),
    });
    expect(res.status).toBe(200);
    const { receipt, body } = await receiptOf(res);
    expect(checkReplay(receipt, body)).toEqual({ ok: true });
    await s.server.journal.flush();
    const text = await recordText(s.dataDir, 'receipt-post');
    expect(text).toContain('"response":{');
    expect(checkRecord(receipt, Buffer.from(text, 'utf8'))).toEqual({ ok: true });
  });

  it('a routestream.v2 quote carries the receipt of its result bytes, naming its frame record', async () => {
    const s = servers[0]!;
    const c = await openV2(s.wsUrl);
    try {
      await c.take(ofType('welcome'));
      c.send({ type: 'subscribe', id: 'q', route: { from: 'USDT', to: 'BTC', amountIn: 150, bridges: '' } });
      await c.take(ofType('subscribed', 'q'));
      const quote = await c.take(ofType('quote', 'q'));
      const raw = c.raw.find((t) => t.includes('"type":"quote"'))!;
      const result = Buffer.from(resultText(raw), 'utf8');
      const decoded = decodeReceipt(String(quote.receipt));
      if (!decoded.ok) throw new Error('the quote message has no receipt that decodes');
      const receipt = decoded.value;
      const keys = parseKeysDocument(await (await fetch(`${s.url}/keys`)).json());
      if (!keys.ok) throw new Error('GET /keys does not parse');
      expect(receipt.requestId).toBe(quote.result.requestId);
      expect(verifyReceiptSignatures(receipt, keys.value)).toEqual({ ok: true });
      expect(checkReplay(receipt, result)).toEqual({ ok: true });
      expect(Buffer.from(receipt.sha256, 'base64url').toString('hex')).toBe(quote.resultSha256);
      await s.server.journal.flush();
      const text = await recordText(s.dataDir, receipt.requestId);
      expect(text).toContain('"type":"quote_frame"');
      expect(checkRecord(receipt, Buffer.from(text, 'utf8'))).toEqual({ ok: true });
    } finally {
      c.ws.close();
    }
  });

  it('by default (RECEIPTS unset): answers carry none, and are journalled as before', async () => {
    const s = await startTestServer();
    servers.push(s);
    const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': 'receipt-off' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quote-receipt')).toBeNull();
    const body = await res.text();
    await s.server.journal.flush();
    const text = await recordText(s.dataDir, 'receipt-off');
    // v2 records name the response's SHA-256 in base64url.
    expect(text).toContain(`"sha256":"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`);
    const c = await openV2(s.wsUrl);
    try {
      await c.take(ofType('welcome'));
      c.send({ type: 'subscribe', id: 'q', route: { from: 'USDT', to: 'BTC', amountIn: 150, bridges: '' } });
      const quote = await c.take(ofType('quote', 'q'));
      expect('receipt' in quote).toBe(false);
    } finally {
      c.ws.close();
    }
  });
});
