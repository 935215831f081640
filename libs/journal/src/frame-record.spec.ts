import { validateStoredRequest } from '@app/request';
import { describe, expect, it } from 'vitest';
import { frameAsQuote, journalParser, type QuoteRecord } from './index';

// Records are read as the callers read them: stored requests checked by the request model.
const { parseJournalEntryLine, parseQuoteRecord } = journalParser(validateStoredRequest);

const tick: QuoteRecord = {
  v: 1,
  type: 'quote',
  requestId: 'tick-1',
  kind: 'stream_tick',
  calculatedAt: 1_786_300_000_000,
  request: {
    requestId: 'tick-1',
    from: 'BTC',
    to: 'USDT',
    exactSide: 'in',
    amount: 1,
    strategy: 'best_single',
    maxVenues: 3,
    bridges: [],
    hopPenaltyBps: 5,
    exchanges: null,
    certifiedOnly: false,
    includeFees: true,
    includeQuotes: false,
    balances: null,
    balanceMode: 'cap',
    minLegNotional: 0,
    requireFullFill: false,
  },
  config: { staleBookMs: 10_000, stalenessPenaltyBps: 1, defaultTakerFeeRate: 0.001, solverVersion: '1' },
  positions: { books: [1], venues: [1] },
  status: null,
  responseSha256: 'a'.repeat(64),
  responseBytes: 30,
  response: { requestId: 'tick-1', amountOut: 5 },
};
const frame = {
  v: 1,
  type: 'quote_frame',
  requestId: 'f-1',
  tickId: 'tick-1',
  responseSha256: 'b'.repeat(64),
  responseBytes: 27,
};

describe('journal entries: stream frames and asOf', () => {
  it('parses a frame record and names a bad field', () => {
    expect(parseJournalEntryLine(JSON.stringify(frame))).toEqual({ ok: true, record: frame });
    const bad = parseJournalEntryLine(JSON.stringify({ ...frame, tickId: '' }));
    expect(bad.ok || bad.error.message).toBe(
      "rejected quote record: field 'tickId' must be a non-empty string",
    );
    expect(parseJournalEntryLine(JSON.stringify(tick))).toMatchObject({
      ok: true,
      record: { kind: 'stream_tick' },
    });
  });

  it("a frame may carry its tick's calculatedAt (age retention times segments of frames by it)", () => {
    const timed = { ...frame, calculatedAt: 1_786_300_000_000 };
    expect(parseJournalEntryLine(JSON.stringify(timed))).toEqual({ ok: true, record: timed });
    const bad = parseJournalEntryLine(JSON.stringify({ ...frame, calculatedAt: -1 }));
    expect(bad.ok).toBe(false);
  });

  it('a frame stands for its tick under the frame id, with the frame hash', () => {
    const q = frameAsQuote(tick, { ...frame, v: 1, type: 'quote_frame' });
    expect(q.requestId).toBe('f-1');
    expect(q.request.requestId).toBe('f-1');
    expect(q.responseSha256).toBe('b'.repeat(64));
    expect(JSON.stringify(q.response)).toBe('{"requestId":"f-1","amountOut":5}');
  });

  it('request.asOf is optional and must be an integer when present', () => {
    const withAsOf = { ...tick, request: { ...tick.request, asOf: 1_786_299_000_000 } };
    expect(parseQuoteRecord(withAsOf)).toMatchObject({
      ok: true,
      record: { request: { asOf: 1_786_299_000_000 } },
    });
    const r = parseQuoteRecord({ ...tick, request: { ...tick.request, asOf: 1.5 } });
    expect(r.ok || r.error.message).toBe(
      "rejected quote record: field 'request.asOf' must be a non-negative integer",
    );
    const plain = parseQuoteRecord(tick);
    expect(plain.ok && !('asOf' in plain.record.request)).toBe(true);
  });
});
