import { ROUTE_DEFAULTS, validateStoredRequest } from '@app/request';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DEFAULTS_V2,
  encodeFrameRecord,
  encodeQuoteRecord,
  journalParser,
  type FrameRecord,
  type QuoteRecord,
} from './index';

// A v2 stream's frames say which stream and seq they were, its ticks why they were solved; the
// records of REST answers and of the one-route stream (v1) are written exactly as before.
const { parseJournalEntryLine } = journalParser(validateStoredRequest);

const tick: QuoteRecord = {
  v: 2,
  type: 'quote',
  requestId: 'tick-1',
  kind: 'stream_tick',
  calculatedAt: 1_786_300_060_137,
  request: {
    ...ROUTE_DEFAULTS,
    requestId: 'tick-1',
    from: 'USDT',
    to: 'BTC',
    amount: 100,
    includeQuotes: false,
  },
  config: { ...CONFIG_DEFAULTS_V2, solverVersion: '1.0.0' },
  positions: { books: [12, 7], venues: [3] },
  status: null,
  responseSha256: 'c'.repeat(64),
  responseBytes: 1873,
  response: null,
};
const frame: Omit<FrameRecord, 'v' | 'type'> = {
  requestId: 'frame-1',
  tickId: 'tick-1',
  responseSha256: 'c'.repeat(64),
  responseBytes: 1873,
  calculatedAt: 1_786_300_060_137,
};
const stream = { streamId: 'stream-1', id: 'btc', seq: 4, tick: 9, ticksSkipped: 2 };

/** The line without the keys named: what a journal written before them held. */
const without = (line: string, keys: readonly string[]): string =>
  JSON.stringify(
    Object.fromEntries(Object.entries(JSON.parse(line) as object).filter(([k]) => !keys.includes(k))),
  );

describe('stream fields in the journal', () => {
  it('frames of the one-route stream and ticks without a cause are written byte for byte as before', () => {
    expect(encodeFrameRecord(frame)).toBe(
      '{"v":2,"type":"quote_frame","requestId":"frame-1","tickId":"tick-1","sha256":"zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw","bytes":1873,"calculatedAt":1786300060137}',
    );
    expect(encodeQuoteRecord(tick, null)).toBe(
      '{"v":2,"requestId":"tick-1","kind":"stream_tick","calculatedAt":1786300060137,"request":{"includeQuotes":false,"from":"USDT","to":"BTC","amount":100},"config":{"solverVersion":"1.0.0"},"positions":{"books":"c.7","venues":"3"},"status":null,"sha256":"zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw","bytes":1873}',
    );
  });

  it('a v2 frame records its streamId, client id, seq, tick and ticksSkipped, and reads them back', () => {
    const line = encodeFrameRecord({ ...frame, stream });
    expect(line).toBe(
      `${encodeFrameRecord(frame).slice(0, -1)},"streamId":"stream-1","id":"btc","seq":4,"tick":9,"ticksSkipped":2}`,
    );
    expect(parseJournalEntryLine(line)).toEqual({
      ok: true,
      record: { v: 2, type: 'quote_frame', ...frame, stream },
    });
    const broken = parseJournalEntryLine(line.replace('"seq":4', '"seq":-4'));
    expect(broken.ok || broken.error.message).toBe(
      "rejected quote record: field 'seq' must be a finite number >= 0",
    );
    const partial = parseJournalEntryLine(line.replace(',"tick":9', ''));
    expect(partial.ok || partial.error.message).toBe("rejected quote record: field 'tick' is missing");
  });

  it('a v2 tick records its cause and reads it back', () => {
    const cause = { kind: 'book' as const, markets: ['BTC/USDC', 'BTC/USDT'] };
    const line = encodeQuoteRecord({ ...tick, cause }, null);
    expect(line.endsWith(',"cause":{"kind":"book","markets":["BTC/USDC","BTC/USDT"]}}')).toBe(true);
    const read = parseJournalEntryLine(line);
    expect(read.ok && read.record.type === 'quote' && read.record.cause).toEqual(cause);
    const bad = parseJournalEntryLine(line.replace('"kind":"book"', '"kind":"rumour"'));
    expect(bad.ok || bad.error.message).toBe(
      "rejected quote record: field 'cause.kind' must be one of open, resume, book, venue, listing, staleness",
    );
  });

  it('every field a reader knew before decodes the same with the new ones present', () => {
    const frameLine = encodeFrameRecord({ ...frame, stream });
    const tickLine = encodeQuoteRecord({ ...tick, cause: { kind: 'staleness', markets: [] } }, null);
    const old = (line: string, keys: readonly string[]) => parseJournalEntryLine(without(line, keys));
    const { stream: _s, ...frameRead } = (parseJournalEntryLine(frameLine) as { record: FrameRecord }).record;
    expect(old(frameLine, Object.keys(stream))).toEqual({ ok: true, record: frameRead });
    const { cause: _c, ...tickRead } = (parseJournalEntryLine(tickLine) as { record: QuoteRecord }).record;
    expect(old(tickLine, ['cause'])).toEqual({ ok: true, record: tickRead });
  });
});
