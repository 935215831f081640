import { ROUTE_DEFAULTS, validateStoredRequest } from '@app/request';
import { describe, expect, it } from 'vitest';
import { base64urlToHex, hexToBase64url } from './hash-text';
import {
  CONFIG_DEFAULTS_V2,
  REQUEST_DEFAULTS_V2,
  encodeFrameRecord,
  encodeQuoteRecord,
  journalParser,
  type QuoteRecord,
} from './index';

// Records are read as the callers read them: stored requests checked by the request model.
const { parseJournalEntryLine, parseQuoteRecordLine } = journalParser(validateStoredRequest);

const HASH = 'c'.repeat(64);
const record: QuoteRecord = {
  v: 2,
  type: 'quote',
  requestId: '4f1c2b9e-5a8d-4e0f-9b7c-2d1e3f4a5b6c',
  kind: 'rest',
  calculatedAt: 1_786_300_060_137,
  request: {
    ...ROUTE_DEFAULTS,
    requestId: '4f1c2b9e-5a8d-4e0f-9b7c-2d1e3f4a5b6c',
    from: 'USDT',
    to: 'BTC',
    amount: 1000,
    strategy: 'split_optimal',
    bridges: ['USDC'],
  },
  config: { ...CONFIG_DEFAULTS_V2, solverVersion: '1.0.0' },
  positions: {
    books: [1_234_567, 1_230_001, 1_229_876, 1_241_000, 1, 0, 99, 1_000_000],
    venues: [96, 103, 54, 62],
  },
  status: 200,
  responseSha256: HASH,
  responseBytes: 15_234,
  response: null,
};

describe('quote record format v2 (compact)', () => {
  it('stores the SHA-256 in base64url and reads it back as hex', () => {
    const hex = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(hexToBase64url(hex)).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
    expect(base64urlToHex('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU')).toBe(hex);
    expect(base64urlToHex('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFV')).toBeNull();
    expect(base64urlToHex('47DEQpj8HBSa+/TImW-5JCeuQeRkm5NMpJWZG3hSuFU')).toBeNull();
    const o = JSON.parse(encodeQuoteRecord(record, null));
    const bad = parseQuoteRecordLine(JSON.stringify({ ...o, sha256: 'x' }));
    expect(bad.ok || bad.error.message).toBe(
      "rejected quote record: field 'sha256' must be a SHA-256 in base64url (43 characters)",
    );
  });

  it('its defaults table is the service defaults today, so records stay compact', () => {
    expect(REQUEST_DEFAULTS_V2).toEqual(ROUTE_DEFAULTS);
  });

  it('stores only what differs from the defaults and reads back the full record', () => {
    const text = encodeQuoteRecord(record, null);
    expect(JSON.parse(text)).toEqual({
      v: 2,
      requestId: record.requestId,
      calculatedAt: record.calculatedAt,
      request: { from: 'USDT', to: 'BTC', amount: 1000, strategy: 'split_optimal', bridges: ['USDC'] },
      config: { solverVersion: '1.0.0' },
      positions: { books: 'qglj.qd2p.qcz8.qlk8.1.0.2r.lfls', venues: '2o.2v.1i.1q' },
      sha256: 'zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw',
      bytes: 15_234,
    });
    expect(parseQuoteRecordLine(text)).toEqual({ ok: true, record });
    // A 36-character requestId, eight 7-digit book offsets: about 400 bytes.
    expect(Buffer.byteLength(text)).toBeLessThan(420);
    // A stream tick keeps its kind and its null status; offsets as arrays are read too.
    const tick = { ...record, kind: 'stream_tick' as const, status: null };
    const tickText = encodeQuoteRecord(tick, null);
    expect(JSON.parse(tickText)).toMatchObject({ kind: 'stream_tick', status: null });
    expect(parseQuoteRecordLine(tickText)).toEqual({ ok: true, record: tick });
    const arrays = { ...JSON.parse(text), positions: record.positions };
    expect(parseQuoteRecordLine(JSON.stringify(arrays))).toEqual({ ok: true, record });
    const badOffsets = { ...JSON.parse(text), positions: { books: 'qglj.-1', venues: '' } };
    const r = parseQuoteRecordLine(JSON.stringify(badOffsets));
    expect(r.ok || r.error.message).toMatch(
      /field 'positions.books' must be an array of non-negative integer offsets/,
    );
  });

  it('writes the same bytes as the record object it replaced (journals stay byte for byte)', () => {
    // Texts written by the encoder before it wrote field by field (JSON.stringify of the compact
    // object): a REST answer, a stream tick with a cause, a 404 with asOf, balances and a setting.
    const hex = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(encodeQuoteRecord({ ...record, responseSha256: hex }, null)).toBe(
      '{"v":2,"requestId":"4f1c2b9e-5a8d-4e0f-9b7c-2d1e3f4a5b6c","calculatedAt":1786300060137,"request":{"strategy":"split_optimal","bridges":["USDC"],"from":"USDT","to":"BTC","amount":1000},"config":{"solverVersion":"1.0.0"},"positions":{"books":"qglj.qd2p.qcz8.qlk8.1.0.2r.lfls","venues":"2o.2v.1i.1q"},"sha256":"47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU","bytes":15234}',
    );
    const tick: QuoteRecord = {
      ...record,
      kind: 'stream_tick',
      status: null,
      cause: { kind: 'book', markets: ['BTC/USDT'] },
    };
    expect(encodeQuoteRecord(tick, null)).toBe(
      '{"v":2,"requestId":"4f1c2b9e-5a8d-4e0f-9b7c-2d1e3f4a5b6c","kind":"stream_tick","calculatedAt":1786300060137,"request":{"strategy":"split_optimal","bridges":["USDC"],"from":"USDT","to":"BTC","amount":1000},"config":{"solverVersion":"1.0.0"},"positions":{"books":"qglj.qd2p.qcz8.qlk8.1.0.2r.lfls","venues":"2o.2v.1i.1q"},"status":null,"sha256":"zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw","bytes":15234,"cause":{"kind":"book","markets":["BTC/USDT"]}}',
    );
    const refused: QuoteRecord = {
      ...record,
      status: 404,
      request: {
        ...record.request,
        asOf: 1_786_300_000_000,
        balances: { default: { USDT: 5 }, perVenue: {} },
      },
      config: { ...record.config, staleBookMs: 5000 },
    };
    expect(encodeQuoteRecord(refused, '{"error":"x"}')).toBe(
      '{"v":2,"requestId":"4f1c2b9e-5a8d-4e0f-9b7c-2d1e3f4a5b6c","calculatedAt":1786300060137,"request":{"strategy":"split_optimal","bridges":["USDC"],"balances":{"default":{"USDT":5},"perVenue":{}},"from":"USDT","to":"BTC","amount":1000,"asOf":1786300000000},"config":{"staleBookMs":5000,"solverVersion":"1.0.0"},"positions":{"books":"qglj.qd2p.qcz8.qlk8.1.0.2r.lfls","venues":"2o.2v.1i.1q"},"status":404,"sha256":"zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw","bytes":15234,"response":{"error":"x"}}',
    );
  });

  it('keeps asOf, non-default settings and the response text when asked to', () => {
    const body = '{"requestId":"x","amountOut":0.0153}';
    const custom: QuoteRecord = {
      ...record,
      request: { ...record.request, asOf: 1_786_300_000_000, includeQuotes: false, exchanges: ['a', 'b'] },
      config: { ...record.config, staleBookMs: 5000 },
      response: JSON.parse(body),
    };
    const text = encodeQuoteRecord(custom, body);
    expect(text.endsWith(`,"response":${body}}`)).toBe(true);
    expect(JSON.parse(text).request).toMatchObject({
      includeQuotes: false,
      exchanges: ['a', 'b'],
      asOf: 1_786_300_000_000,
    });
    expect(JSON.parse(text).config).toEqual({ staleBookMs: 5000, solverVersion: '1.0.0' });
    expect(parseQuoteRecordLine(text)).toEqual({ ok: true, record: custom });
  });

  it('refuses an unknown request or config key instead of letting it fall back to a default', () => {
    const o = JSON.parse(encodeQuoteRecord(record, null));
    const typo = parseQuoteRecordLine(
      JSON.stringify({ ...o, request: { ...o.request, strateg: 'split_capped' } }),
    );
    expect(typo.ok || typo.error.message).toBe(
      "rejected quote record: field 'request.strateg' is not a known field",
    );
    const cfg = parseQuoteRecordLine(JSON.stringify({ ...o, config: { ...o.config, staleMs: 1 } }));
    expect(cfg.ok || cfg.error.message).toBe(
      "rejected quote record: field 'config.staleMs' is not a known field",
    );
    const other = parseQuoteRecordLine(
      JSON.stringify({ ...o, request: { ...o.request, requestId: 'other' } }),
    );
    expect(other.ok || other.error.message).toMatch(/field 'request.requestId' must equal requestId/);
    const bad = parseQuoteRecordLine(JSON.stringify({ ...o, request: { ...o.request, maxVenues: 0 } }));
    expect(bad.ok || bad.error.message).toMatch(/field 'request.maxVenues' is out of the range/);
    expect(parseQuoteRecordLine(JSON.stringify({ ...o, v: 3 })).ok).toBe(false);
  });

  it('still reads format v1 records (full request, config and response)', () => {
    const v1 = { ...record, v: 1, response: { requestId: record.requestId } };
    expect(parseQuoteRecordLine(JSON.stringify(v1))).toEqual({ ok: true, record: v1 });
    // v1 never left a field out: a v1 record without its full request is refused.
    const short = { ...v1, request: JSON.parse(encodeQuoteRecord(record, null)).request };
    const r = parseQuoteRecordLine(JSON.stringify(short));
    expect(r.ok || r.error.message).toMatch(/^rejected quote record: field 'request\.[a-zA-Z]+' /);
  });

  it('writes stream frame records compactly too and reads both frame formats', () => {
    const frame = { requestId: 'f-1', tickId: 't-1', responseSha256: HASH, responseBytes: 1873 };
    const text = encodeFrameRecord(frame);
    expect(JSON.parse(text)).toEqual({
      v: 2,
      type: 'quote_frame',
      requestId: 'f-1',
      tickId: 't-1',
      sha256: 'zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw',
      bytes: 1873,
    });
    expect(parseJournalEntryLine(text)).toEqual({
      ok: true,
      record: { v: 2, type: 'quote_frame', ...frame },
    });
    const v1 = { v: 1, type: 'quote_frame', ...frame };
    expect(parseJournalEntryLine(JSON.stringify(v1))).toEqual({ ok: true, record: v1 });
  });
});
