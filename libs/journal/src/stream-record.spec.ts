import { ROUTE_DEFAULTS, validateStoredRequest } from '@app/request';
import { describe, expect, it } from 'vitest';
import { encodeStreamClose, encodeStreamOpen, journalParser } from './index';

// A v2 stream's open and close records: read back whole by the stream's readers, and refused as
// "not a result" by the readers that replay results (so a quote replay or an audit never takes one
// for a quote).
const { parseJournalEntryLine, parseJournalValueLine } = journalParser(validateStoredRequest);

const { requestId: _, ...request } = {
  ...ROUTE_DEFAULTS,
  requestId: '',
  from: 'USDT',
  to: 'BTC',
  amount: 100,
};
const open = {
  streamId: 'new-stream',
  id: 'btc',
  at: 1_786_300_060_000,
  path: 'stream' as const,
  request,
  resume: { streamId: 'old-stream', seq: 3 },
  verdict: { resumed: true as const, missedFrames: 2 },
};
const close = {
  streamId: 'new-stream',
  id: 'btc',
  at: 1_786_300_070_000,
  lastSeq: 7,
  reason: 'unsubscribed' as const,
  request,
};

describe('stream open and close records', () => {
  it('read back whole, the request as stored', () => {
    const o = parseJournalValueLine(encodeStreamOpen(open));
    expect(o).toEqual({ ok: true, record: { v: 2, type: 'stream_open', ...open } });
    expect(o.ok && 'request' in o.record && JSON.stringify(o.record.request)).toBe(JSON.stringify(request));
    expect(parseJournalValueLine(encodeStreamClose(close))).toEqual({
      ok: true,
      record: { v: 2, type: 'stream_close', ...close },
    });
    const fresh = { ...open, resume: null, verdict: null };
    expect(parseJournalValueLine(encodeStreamOpen(fresh))).toMatchObject({ ok: true, record: fresh });
    const refused = { ...open, verdict: { resumed: false as const, reason: 'expired' as const } };
    expect(parseJournalValueLine(encodeStreamOpen(refused))).toMatchObject({ ok: true, record: refused });
  });

  it('a broken one names its field', () => {
    const cases: [string, string][] = [
      [
        encodeStreamOpen({ ...open, verdict: null }),
        "field 'verdict' must be given exactly when a resume was claimed",
      ],
      [encodeStreamClose({ ...close, lastSeq: -1 }), "field 'lastSeq' must be a finite number >= 0"],
      [encodeStreamClose({ ...close, request: { ...request, amount: -5 } }), "field 'request.amount'"],
      [
        encodeStreamOpen(open).replace('"reason":', '"why":').replace('"resumed":true', '"resumed":"yes"'),
        "field 'verdict.resumed' must be true or false",
      ],
      [
        encodeStreamClose(close).replace('unsubscribed', 'bored'),
        "field 'reason' must be one of unsubscribed, closed, shutdown",
      ],
    ];
    for (const [line, message] of cases) {
      const parsed = parseJournalValueLine(line);
      expect(parsed.ok || parsed.error.message).toContain(message);
    }
  });

  it("a result's reader is told it is no result, never handed it as one", () => {
    const parsed = parseJournalEntryLine(encodeStreamClose(close));
    expect(parsed.ok || [parsed.error.code, parsed.error.message]).toEqual([
      'not_a_result',
      "rejected quote record: field 'type' is 'stream_close': the open or close of stream new-stream, not a result (replay stream lists it)",
    ]);
  });
});
