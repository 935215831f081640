import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseQuoteRecordLine } from './journal-parse';
import { EmbeddedLog, type AppendEntry, type EventLog } from '@app/event-log';
import { SERVER_DEFAULTS } from '@app/config';
import { SOLVER_VERSION, type RouteRequest } from '@app/routing';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from './journal-entry';
import { QuoteJournal } from './quote-journal';
import { sha256Hex } from './sha256';

// The service's routing settings and journal queue bound (libs/config's table).
const DEFAULT_ROUTING_CONFIG = SERVER_DEFAULTS.routing;
const QUEUE_BYTES = SERVER_DEFAULTS.journalQueueBytes;

const request: RouteRequest = {
  requestId: 'r-1',
  from: 'BTC',
  to: 'USDT',
  exactSide: 'in',
  amount: 1,
  strategy: 'split_optimal',
  maxVenues: 3,
  bridges: [],
  hopPenaltyBps: 0,
  exchanges: null,
  certifiedOnly: false,
  includeFees: true,
  includeQuotes: false,
  balances: { default: { BTC: 2 }, perVenue: { a: { BTC: 0 } } },
  balanceMode: 'cap',
  minLegNotional: 0,
  requireFullFill: false,
};
const body = '{"requestId":"r-1","amountOut":65000.5,"note":"é"}';
const entry = (requestId = 'r-1'): JournalEntry => ({
  kind: 'rest',
  request: { ...request, requestId },
  calculatedAt: 1_786_300_000_123,
  positions: { books: [3, 0], venues: [1] },
  status: 200,
  body,
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function log(): EmbeddedLog {
  const d = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(d);
  return new EmbeddedLog({ dataDir: d, partitions: { quotes: 2 } });
}
async function journalled(l: EventLog): Promise<string[]> {
  const hwm = await l.highWatermarks('quotes');
  const out: string[] = [];
  for (let p = 0; p < hwm.length; p++) for (const e of await l.read('quotes', p, 0)) out.push(e.value);
  return out;
}

describe('QuoteJournal', () => {
  it('strict: record() resolves only once the record is in the log, and the record validates', async () => {
    const l = log();
    const j = new QuoteJournal({
      log: l,
      routing: DEFAULT_ROUTING_CONFIG,
      mode: 'strict',
      maxQueuedBytes: QUEUE_BYTES,
    });
    await j.record(entry());
    const [value] = await journalled(l);
    const parsed = parseQuoteRecordLine(value!);
    if (!parsed.ok) throw parsed.error;
    expect(parsed.record).toMatchObject({
      requestId: 'r-1',
      kind: 'rest',
      calculatedAt: 1_786_300_000_123,
      config: { ...DEFAULT_ROUTING_CONFIG, solverVersion: SOLVER_VERSION },
      positions: { books: [3, 0], venues: [1] },
      status: 200,
      responseSha256: sha256Hex(body),
      responseBytes: Buffer.byteLength(body),
      // By default the record proves the response (hash and length) without holding it.
      response: null,
    });
    expect(parsed.record.request).toEqual(request);
    expect(value!).not.toContain('"response"');
    expect(Buffer.byteLength(value!)).toBeLessThan(512);
    await l.close();
  });

  it('storeResponses (JOURNAL_RESPONSES=true): the record holds the exact response text too', async () => {
    const l = log();
    const j = new QuoteJournal({
      log: l,
      routing: DEFAULT_ROUTING_CONFIG,
      mode: 'strict',
      storeResponses: true,
      maxQueuedBytes: QUEUE_BYTES,
    });
    await j.record(entry());
    const [value] = await journalled(l);
    expect(value!.endsWith(`"response":${body}}`)).toBe(true);
    const parsed = parseQuoteRecordLine(value!);
    if (!parsed.ok) throw parsed.error;
    expect(parsed.record.response).toEqual(JSON.parse(body));
    expect(parsed.record.responseSha256).toBe(sha256Hex(body));
    await l.close();
  });

  it('batched: record() returns at once; entries land together after flushMs or on close', async () => {
    const l = log();
    const j = new QuoteJournal({
      log: l,
      routing: DEFAULT_ROUTING_CONFIG,
      flushMs: 50,
      maxQueuedBytes: QUEUE_BYTES,
    });
    for (let i = 0; i < 5; i++) await j.record(entry(`b-${i}`));
    expect(await journalled(l)).toHaveLength(0);
    expect(j.queued).toBe(5);
    await new Promise((r) => setTimeout(r, 120));
    expect(await journalled(l)).toHaveLength(5);
    await j.record(entry('b-5'));
    await j.close();
    expect(await journalled(l)).toHaveLength(6);
    await expect(j.record(entry('late'))).rejects.toThrow(/closed/);
    await l.close();
  });

  it('flushMs 0: the records of one turn are appended together right after that turn', async () => {
    const l = log();
    const appends: number[] = [];
    const counting = Object.assign(Object.create(l) as EventLog, {
      append: (topic: 'quotes', entries: readonly AppendEntry[]) => {
        appends.push(entries.length);
        return l.append(topic, entries);
      },
    });
    const j = new QuoteJournal({
      log: counting,
      routing: DEFAULT_ROUTING_CONFIG,
      flushMs: 0,
      storeResponses: true,
      maxQueuedBytes: QUEUE_BYTES,
    });
    for (let i = 0; i < 3; i++) void j.record(entry(`t-${i}`));
    // Still the serving turn: nothing written yet.
    expect(await journalled(l)).toHaveLength(0);
    await new Promise((r) => setImmediate(r));
    expect(appends).toEqual([3]);
    void j.record(entry('t-3'));
    await new Promise((r) => setImmediate(r));
    expect(appends).toEqual([3, 1]);
    const values = await journalled(l);
    expect(values.map((v) => (JSON.parse(v) as { requestId: string }).requestId).sort()).toEqual([
      't-0',
      't-1',
      't-2',
      't-3',
    ]);
    for (const v of values) {
      const parsed = parseQuoteRecordLine(v);
      if (!parsed.ok) throw parsed.error;
      expect(parsed.record.responseSha256).toBe(sha256Hex(body));
      expect(parsed.record.response).toEqual(JSON.parse(body));
    }
    await j.close();
    await l.close();
  });

  it('flushMs 0: after a failed append only the retry timer appends, not every new turn', async () => {
    const inner = log();
    let down = true;
    let attempts = 0;
    const flaky = Object.assign(Object.create(inner) as EventLog, {
      append: (topic: 'quotes', entries: readonly AppendEntry[]) => {
        attempts++;
        return down ? Promise.reject(new Error('disk full')) : inner.append(topic, entries);
      },
    });
    const j = new QuoteJournal({
      log: flaky,
      routing: DEFAULT_ROUTING_CONFIG,
      flushMs: 0,
      maxQueuedBytes: QUEUE_BYTES,
    });
    for (let i = 0; i < 10; i++) {
      await j.record(entry(`f-${i}`));
      await new Promise((r) => setImmediate(r));
    }
    expect(attempts).toBe(1);
    expect(j.queued).toBe(10);
    down = false;
    await new Promise((r) => setTimeout(r, 150));
    expect(j.queued).toBe(0);
    const ids = (await journalled(inner)).map((v) => (JSON.parse(v) as { requestId: string }).requestId);
    expect(ids.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `f-${i}`).sort());
    await j.close();
    await inner.close();
  });

  it('keeps batched entries when the log fails and appends them once it recovers; strict callers see the failure', async () => {
    const inner = log();
    let down = true;
    const flaky = Object.assign(Object.create(inner) as EventLog, {
      append: (topic: 'quotes', entries: readonly AppendEntry[]) =>
        down ? Promise.reject(new Error('broker down')) : inner.append(topic, entries),
    });
    const errors: string[] = [];
    const j = new QuoteJournal({
      log: flaky,
      routing: DEFAULT_ROUTING_CONFIG,
      flushMs: 10,
      onError: (e) => errors.push(e.message),
      maxQueuedBytes: QUEUE_BYTES,
    });
    await j.record(entry('kept'));
    await new Promise((r) => setTimeout(r, 60));
    expect(errors[0]).toBe('broker down');
    expect(j.queued).toBe(1);
    const strict = new QuoteJournal({
      log: flaky,
      routing: DEFAULT_ROUTING_CONFIG,
      mode: 'strict',
      maxQueuedBytes: QUEUE_BYTES,
    });
    await expect(strict.record(entry('s'))).rejects.toThrow('broker down');
    down = false;
    await new Promise((r) => setTimeout(r, 250));
    expect(j.queued).toBe(0);
    expect((await journalled(inner)).map((v) => (JSON.parse(v) as { requestId: string }).requestId)).toEqual([
      'kept',
    ]);
    await j.close();
    await inner.close();
  });

  it('bounds its queue in bytes while the log refuses appends: entries wait as their record text, the REST journal apart from the stream (issue 22)', async () => {
    const inner = log();
    const refusing = Object.assign(Object.create(inner) as EventLog, {
      append: () => Promise.reject(new Error('no space left on device')),
    });
    const maxQueuedBytes = 1024 * 1024;
    const j = new QuoteJournal({
      log: refusing,
      routing: DEFAULT_ROUTING_CONFIG,
      flushMs: 0,
      maxQueuedBytes,
    });
    // Responses of 20 KB: the disk-full journal held about 25 KB per waiting entry.
    const big = { ...entry(), body: `{"requestId":"x","pad":"${'p'.repeat(20_000)}"}` };
    let accepted = 0;
    for (let i = 0; i < 10_000; i++) {
      if (!j.accepts('quotes')) break;
      await j.record({ ...big, request: { ...big.request, requestId: `big-${i}` } });
      accepted++;
      // Each turn's entries are reduced to their record text once the first append failed.
      await new Promise((r) => setImmediate(r));
    }
    expect(j.accepts('quotes')).toBe(false);
    await expect(j.record(entry('refused'))).rejects.toThrow(/refuses appends/);
    // Held as record texts (a few hundred bytes), not 20 KB responses: far more than 1 MiB / 20 KB wait.
    expect(accepted).toBeGreaterThan(1000);
    expect(j.queuedBytesTotal).toBeLessThanOrEqual(maxQueuedBytes + 25_000);
    // The stream's journal has a budget of its own: a full REST queue does not stop frames.
    expect(j.accepts('stream')).toBe(true);
    await j.recordFrame({ requestId: 'f-1', tickId: 't-1', calculatedAt: 1, body: '{"requestId":"f-1"}' });
    expect(j.queued).toBe(accepted + 1);
  });
});
