import { createHash } from 'node:crypto';
import { JOURNAL_TOPICS } from '@app/events';
import type { JournalEntryRecord } from '@app/journal';
import { parseJournalEntryLine } from '@app/audit';
import { EmbeddedLog } from '@app/event-log';
import { afterAll, describe, expect, it } from 'vitest';
import { openStream } from './support/http';
import { T0 } from '../support/records';
import { startTestServer, type TestServer } from './support/server';
import { startWithJournalDown } from './support/journal-down';

// The quote journal behind GET/POST /route and the stream: what is recorded, and when (batched or strict).
const Q = '/route?from=USDT&to=BTC&amountIn=150&strategy=split_optimal&bridges=';
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The journal entries of `requestId` read from the log right now (a second reader, no flush). */
async function entriesOf(dataDir: string, requestId: string): Promise<JournalEntryRecord[]> {
  const reader = new EmbeddedLog({ dataDir });
  try {
    const out: JournalEntryRecord[] = [];
    for (const topic of JOURNAL_TOPICS) {
      const hwm = await reader.highWatermarks(topic);
      for (let p = 0; p < hwm.length; p++)
        for (const e of await reader.read(topic, p, 0)) {
          if (e.key !== requestId) continue;
          const parsed = parseJournalEntryLine(e.value);
          if (!parsed.ok) throw parsed.error;
          out.push(parsed.record);
        }
    }
    return out;
  } finally {
    await reader.close();
  }
}

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('batched (default)', () => {
  it('journals the exact bytes sent, with the status, request and config', async () => {
    const s = await startTestServer();
    servers.push(s);
    const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': 'journal-1' } });
    const body = await res.text();
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const missing = await fetch(`${s.url}/route?from=FOO&to=BTC&amountIn=1`, {
      headers: { 'x-request-id': 'journal-404' },
    });
    expect(missing.status).toBe(404);
    const missingBody = await missing.text();
    await s.server.journal.flush();
    const [record] = await entriesOf(s.dataDir, 'journal-1');
    expect(record).toMatchObject({
      type: 'quote',
      kind: 'rest',
      status: 200,
      calculatedAt: T0,
      responseSha256: sha256(body),
      responseBytes: Buffer.byteLength(body),
      config: { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001 },
      request: { requestId: 'journal-1', from: 'USDT', to: 'BTC', amount: 150, strategy: 'split_optimal' },
    });
    // By default the journal holds the hash and length, not the response itself.
    expect(record).toMatchObject({ v: 2, response: null });
    expect(await entriesOf(s.dataDir, 'journal-404')).toMatchObject([
      { status: 404, responseSha256: sha256(missingBody) },
    ]);
  });

  it('JOURNAL_RESPONSES=true keeps the exact response in the record', async () => {
    const s = await startTestServer({ journalResponses: true });
    servers.push(s);
    const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': 'journal-full' } });
    const body = await res.text();
    await s.server.journal.flush();
    const [record] = await entriesOf(s.dataDir, 'journal-full');
    expect(record).toMatchObject({ type: 'quote', responseSha256: sha256(body) });
    expect(JSON.stringify((record as { response: unknown }).response)).toBe(body);
  });

  it('journals each stream frame under its own requestId, pointing at the shared tick', async () => {
    const s = servers[0]!;
    const a = openStream(s.wsUrl, 'from=USDT&to=BTC&amountIn=99&bridges=');
    const b = openStream(s.wsUrl, 'from=USDT&to=BTC&amountIn=99&bridges=');
    const [fa, fb] = [await a.next(), await b.next()];
    expect(fa.requestId).not.toBe(fb.requestId);
    a.ws.close();
    b.ws.close();
    await s.server.journal.flush();
    const [ra] = await entriesOf(s.dataDir, fa.requestId as string);
    const [rb] = await entriesOf(s.dataDir, fb.requestId as string);
    expect(ra).toMatchObject({ type: 'quote_frame', responseSha256: sha256(JSON.stringify(fa)) });
    expect(rb).toMatchObject({ type: 'quote_frame', responseSha256: sha256(JSON.stringify(fb)) });
    for (const r of [ra, rb]) {
      if (r?.type !== 'quote_frame') throw new Error('not a frame record');
      const [tick] = await entriesOf(s.dataDir, r.tickId);
      expect(tick).toMatchObject({ type: 'quote', kind: 'stream_tick', status: null });
    }
  });
});

describe('strict (JOURNAL_STRICT=true)', () => {
  it('no answer or frame leaves before its record is in the log', async () => {
    const s = await startTestServer({ journalStrict: true });
    servers.push(s);
    expect(s.server.journal.mode).toBe('strict');
    const res = await fetch(`${s.url}${Q}`, { headers: { 'x-request-id': 'strict-1' } });
    const body = await res.text();
    // Read the log at once, without flushing: the record is already there.
    expect(await entriesOf(s.dataDir, 'strict-1')).toMatchObject([{ responseSha256: sha256(body) }]);
    const st = openStream(s.wsUrl, 'from=USDT&to=BTC&amountIn=98&bridges=');
    const frame = await st.next();
    const [record] = await entriesOf(s.dataDir, frame.requestId as string);
    expect(record).toMatchObject({ type: 'quote_frame', responseSha256: sha256(JSON.stringify(frame)) });
    if (record?.type !== 'quote_frame') throw new Error('not a frame record');
    expect(await entriesOf(s.dataDir, record.tickId)).toHaveLength(1);
    st.ws.close();
  });

  it('when the journal cannot append, REST answers 503 and the stream closes 1011', async () => {
    const down = await startWithJournalDown({ journalStrict: true }, ['quotes', 'stream']);
    try {
      const res = await fetch(`${down.url}${Q}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'quote journal unavailable: disk full' });
      const st = openStream(down.url.replace('http', 'ws'), 'from=USDT&to=BTC&amountIn=98&bridges=');
      expect(await st.closed).toEqual({ code: 1011, reason: 'quote journal unavailable' });
      expect(st.frames).toEqual([]);
    } finally {
      await down.close();
    }
  });
});
