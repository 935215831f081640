import { RECORD_DEFAULTS_V2, decodeOffsets, expandConfigV2, expandRequestV2 } from './compact';
import { base64urlToHex } from './hash-text';
import { JournalError } from './journal-error';
import { get, int, num, obj, oneOf, str, type Obj, type RequestValidator } from './read-fields';
import { isStreamEvent, validateStreamEvent } from './stream-record';
import {
  TICK_CAUSES,
  type FrameRecord,
  type FrameStream,
  type TickCause,
  type JournalConfig,
  type JournalEntryRecord,
  type JournalValue,
  type JournalPositions,
  type JournalRequest,
  type QuoteRecord,
} from './quote-record';

export type QuoteParse =
  { readonly ok: true; readonly record: QuoteRecord } | { readonly ok: false; readonly error: JournalError };
export type JournalEntryParse =
  | { readonly ok: true; readonly record: JournalEntryRecord }
  | { readonly ok: false; readonly error: JournalError };
export type JournalValueParse =
  { readonly ok: true; readonly record: JournalValue } | { readonly ok: false; readonly error: JournalError };

export type { RequestCheck, RequestValidator } from './read-fields';

/** The journal's readers, each checking stored requests with one RequestValidator. */
export interface JournalParser {
  /** Parse one `quotes` topic value (JSON text) into a validated record; never throws. */
  readonly parseQuoteRecordLine: (text: string) => QuoteParse;
  /**
   * Parse a journal entry that stands for a result: a QuoteRecord or a stream FrameRecord (a
   * stream's open or close is refused as `not_a_result`); never throws.
   */
  readonly parseJournalEntryLine: (text: string) => JournalEntryParse;
  /** Parse any journal value: a result's entry, or a v2 stream's open or close; never throws. */
  readonly parseJournalValueLine: (text: string) => JournalValueParse;
  /** Validate a decoded value as a quote journal record; never throws, never returns a partial record. */
  readonly parseQuoteRecord: (value: unknown) => QuoteParse;
}

export function journalParser(validateRequest: RequestValidator): JournalParser {
  const parseQuoteRecord = (value: unknown): QuoteParse => {
    try {
      return { ok: true, record: validate(value, validateRequest) };
    } catch (e) {
      if (e instanceof JournalError) return { ok: false, error: e };
      throw e;
    }
  };
  const parseQuoteRecordLine = (text: string): QuoteParse => {
    const value = jsonOf(text);
    return value.ok ? parseQuoteRecord(value.value) : value;
  };
  const parseJournalValueLine = (text: string): JournalValueParse => {
    const parsed = jsonOf(text);
    if (!parsed.ok) return parsed;
    const value = parsed.value;
    const o = typeof value === 'object' && value !== null ? (value as Obj) : null;
    if (o !== null && (o.type === 'quote_frame' || isStreamEvent(o))) {
      try {
        const record = o.type === 'quote_frame' ? validateFrame(o) : validateStreamEvent(o, validateRequest);
        return { ok: true, record };
      } catch (e) {
        if (e instanceof JournalError) return { ok: false, error: e };
        throw e;
      }
    }
    return parseQuoteRecord(value);
  };
  const parseJournalEntryLine = (text: string): JournalEntryParse => {
    const parsed = parseJournalValueLine(text);
    if (!parsed.ok || parsed.record.type === 'quote' || parsed.record.type === 'quote_frame')
      return parsed as JournalEntryParse;
    // Valid, but a stream's open or close stands for no result: nothing to replay.
    return {
      ok: false,
      error: new JournalError(
        'not_a_result',
        'type',
        `is '${parsed.record.type}': the open or close of stream ${parsed.record.streamId}, not a result (replay stream lists it)`,
      ),
    };
  };
  return { parseQuoteRecord, parseQuoteRecordLine, parseJournalEntryLine, parseJournalValueLine };
}

function jsonOf(
  text: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: JournalError } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: new JournalError('not_json', null, 'is not valid JSON') };
  }
}

function offsets(o: Obj, key: string): number[] {
  let v = get(o, 'positions', key);
  // v2 writes base-36 text (compact.ts); arrays of numbers are read in every version.
  if (typeof v === 'string') v = decodeOffsets(v) ?? v;
  if (!Array.isArray(v) || v.some((n) => typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0))
    throw new JournalError(
      'bad_field',
      `positions.${key}`,
      'must be an array of non-negative integer offsets (or their base-36 list)',
    );
  return [...(v as number[])];
}

function request(v: unknown, validateRequest: RequestValidator): JournalRequest {
  // The one request model (libs/request) decides what a valid normalised request is.
  const parsed = validateRequest(v);
  if (!parsed.ok) throw new JournalError('bad_field', parsed.field, parsed.error);
  return parsed.request;
}

function config(v: unknown): JournalConfig {
  const o = obj(v, 'config');
  return {
    staleBookMs: num(o, 'config', 'staleBookMs', 0),
    stalenessPenaltyBps: num(o, 'config', 'stalenessPenaltyBps', 0),
    defaultTakerFeeRate: num(o, 'config', 'defaultTakerFeeRate', 0),
    solverVersion: str(o, 'config', 'solverVersion'),
  };
}

function validate(value: unknown, validateRequest: RequestValidator): QuoteRecord {
  const o = obj(value, null);
  if (o.v !== 1 && o.v !== 2)
    throw new JournalError('bad_version', 'v', `unsupported version ${JSON.stringify(o.v)}`);
  const v = o.v;
  // v2 writes no type for a quote (a frame says quote_frame).
  if (o.type !== 'quote' && !(v === 2 && o.type === undefined))
    throw new JournalError('bad_type', 'type', `must be 'quote', got ${JSON.stringify(o.type)}`);
  const requestId = str(o, '', 'requestId');
  // v2 leaves out what equals its defaults table (compact.ts); v1 stores everything.
  const rawRequest = get(o, '', 'request');
  const req = request(v === 2 ? expandRequestV2(rawRequest, requestId) : rawRequest, validateRequest);
  if (req.requestId !== requestId)
    throw new JournalError('bad_field', 'request.requestId', `must equal requestId '${requestId}'`);
  const rawConfig = get(o, '', 'config');
  const pos = obj(get(o, '', 'positions'), 'positions');
  const positions: JournalPositions = { books: offsets(pos, 'books'), venues: offsets(pos, 'venues') };
  // v2 leaves out the kind and status of a 200 REST answer.
  const defaulted = (key: 'kind' | 'status'): Obj =>
    v === 2 && o[key] === undefined ? RECORD_DEFAULTS_V2 : o;
  const status = get(defaulted('status'), '', 'status');
  if (
    status !== null &&
    (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
  )
    throw new JournalError('bad_field', 'status', 'must be null or an HTTP status');
  // v2 names them sha256 (base64url) and bytes; v1 responseSha256 (hex) and responseBytes.
  const hash = v === 2 ? sha256V2(o) : sha256Field(o);
  // v2 writes `response` only when the journal stores bodies; v1 always wrote it (maybe null).
  const response = v === 2 && o.response === undefined ? null : get(o, '', 'response');
  return {
    v,
    type: 'quote',
    requestId,
    kind: oneOf(defaulted('kind'), '', 'kind', ['rest', 'stream', 'stream_tick'] as const),
    calculatedAt: int(o, '', 'calculatedAt'),
    request: req,
    config: config(v === 2 ? expandConfigV2(rawConfig) : rawConfig),
    positions,
    status,
    responseSha256: hash,
    responseBytes: int(o, '', v === 2 ? 'bytes' : 'responseBytes'),
    response,
    ...(o.cause === undefined ? {} : { cause: tickCause(o.cause) }),
  };
}

function tickCause(v: unknown): TickCause {
  const o = obj(v, 'cause');
  const markets = get(o, 'cause', 'markets');
  if (!Array.isArray(markets) || markets.some((m) => typeof m !== 'string' || m === ''))
    throw new JournalError('bad_field', 'cause.markets', 'must be an array of market symbols');
  return { kind: oneOf(o, 'cause', 'kind', TICK_CAUSES), markets: markets as string[] };
}

/** A v2 frame's stream fields: all of them or none (a v1 frame, or one written before them). */
function frameStream(o: Obj): FrameStream | null {
  if (o.streamId === undefined) return null;
  return {
    streamId: str(o, '', 'streamId'),
    id: str(o, '', 'id'),
    seq: int(o, '', 'seq'),
    tick: int(o, '', 'tick'),
    ticksSkipped: int(o, '', 'ticksSkipped'),
  };
}

function sha256V2(o: Obj): string {
  const hex = base64urlToHex(str(o, '', 'sha256'));
  if (hex === null)
    throw new JournalError('bad_field', 'sha256', 'must be a SHA-256 in base64url (43 characters)');
  return hex;
}

function sha256Field(o: Obj): string {
  const hash = str(o, '', 'responseSha256');
  if (!/^[0-9a-f]{64}$/.test(hash))
    throw new JournalError('bad_field', 'responseSha256', 'must be 64 lowercase hex digits');
  return hash;
}

function validateFrame(o: Obj): FrameRecord {
  if (o.v !== 1 && o.v !== 2)
    throw new JournalError('bad_version', 'v', `unsupported version ${JSON.stringify(o.v)}`);
  const stream = frameStream(o);
  // v2 stores the hash as sha256 (base64url) and the length as bytes, like a v2 quote.
  return {
    v: o.v,
    type: 'quote_frame',
    requestId: str(o, '', 'requestId'),
    tickId: str(o, '', 'tickId'),
    responseSha256: o.v === 2 ? sha256V2(o) : sha256Field(o),
    responseBytes: int(o, '', o.v === 2 ? 'bytes' : 'responseBytes'),
    ...(o.calculatedAt === undefined ? {} : { calculatedAt: int(o, '', 'calculatedAt') }),
    ...(stream === null ? {} : { stream }),
  };
}
