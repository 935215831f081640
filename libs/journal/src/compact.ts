import type { RouteRequest } from '@app/routing';
import { hexToBase64url } from './hash-text';
import { JournalError } from './journal-error';
import type { FrameRecord, QuoteRecord } from './quote-record';

/**
 * The request defaults format v2 leaves out (docs/replay.md "Quote record"). A frozen copy, not
 * @app/request's live ROUTE_DEFAULTS: a record must decode to the same request for as long as it
 * is kept, whatever later versions of the service choose as defaults. A unit test checks the two
 * agree, so records stay compact; when the service's defaults change, a new format version gets
 * a new table and this one keeps decoding v2.
 */
export const REQUEST_DEFAULTS_V2 = Object.freeze({
  exactSide: 'in',
  strategy: 'best_single',
  maxVenues: 3,
  bridges: Object.freeze(['USDT', 'USDC', 'BTC', 'ETH']),
  hopPenaltyBps: 5,
  exchanges: null,
  certifiedOnly: false,
  includeFees: true,
  includeQuotes: true,
  balances: null,
  balanceMode: 'cap',
  minLegNotional: 0,
  requireFullFill: false,
} as const satisfies Omit<RouteRequest, 'requestId' | 'from' | 'to' | 'amount'>);

/** The routing settings format v2 leaves out when they equal the service's documented defaults. */
export const CONFIG_DEFAULTS_V2 = Object.freeze({
  staleBookMs: 10_000,
  stalenessPenaltyBps: 1,
  defaultTakerFeeRate: 0.001,
});

/** Every key a v2 request may carry: the defaulted ones, the three without a default, asOf. */
const REQUEST_KEYS: ReadonlySet<string> = new Set([
  'requestId',
  'from',
  'to',
  'amount',
  ...Object.keys(REQUEST_DEFAULTS_V2),
  'asOf',
]);
const CONFIG_KEYS: ReadonlySet<string> = new Set([...Object.keys(CONFIG_DEFAULTS_V2), 'solverVersion']);

type Obj = Record<string, unknown>;

/** Flat JSON values (numbers, strings, booleans, null, arrays of strings) compared by content. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

/** Only what differs from `defaults`, in the record's own key order; `skip` keys are left out. */
function without(value: object, defaults: Obj, skip: ReadonlySet<string>): Obj {
  const out: Obj = {};
  // Object.keys, not Object.entries: no pair array per key (this runs for every journalled quote).
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = (value as Obj)[k];
    if (skip.has(k) || (k in defaults && same(v, defaults[k]))) continue;
    out[k] = v;
  }
  return out;
}

const NO_SKIP: ReadonlySet<string> = new Set();
/** What v2 leaves out of a record: its type (a quote), and the kind and status of a 200 REST answer. */
export const RECORD_DEFAULTS_V2 = Object.freeze({ type: 'quote', kind: 'rest', status: 200 });
const SKIP_REQUEST_ID: ReadonlySet<string> = new Set(['requestId']);

/** Offsets as one string of base-36 numbers joined by '.': a 10-digit offset takes 7 characters. */
export function encodeOffsets(offsets: readonly number[]): string {
  return offsets.map((n) => n.toString(36)).join('.');
}

const BASE36 = /^[0-9a-z]{1,11}$/;

/** The offsets of encodeOffsets back, or null when the text is not such a list. */
export function decodeOffsets(text: string): number[] | null {
  if (text === '') return [];
  const out: number[] = [];
  for (const part of text.split('.')) {
    const n = BASE36.test(part) ? parseInt(part, 36) : NaN;
    if (!Number.isSafeInteger(n)) return null;
    out.push(n);
  }
  return out;
}

/**
 * The v2 text of a quote record: the request and the routing settings without the values they
 * share with the v2 tables, the request's requestId left out (it is the record's), no `type`
 * (a v2 entry without one is a quote), kind and status left out for a 200 REST answer,
 * positions in base 36, the response's SHA-256 as `sha256` in base64url and its length as
 * `bytes`, no response. `responseText` (the
 * exact JSON sent) is appended as `response` when the journal stores bodies.
 */
export function encodeQuoteRecord(record: QuoteRecord, responseText: string | null): string {
  // Written field by field in the order of the object it replaces (JSON.stringify of { v, requestId,
  // kind?, calculatedAt, request, config, positions, status?, sha256, bytes, cause? }): the same
  // text, without building that object and its spreads for every journalled quote.
  let text = `{"v":2${member('requestId', record.requestId)}`;
  if (record.kind !== RECORD_DEFAULTS_V2.kind) text += member('kind', record.kind);
  text += member('calculatedAt', record.calculatedAt);
  text += member('request', without(record.request, REQUEST_DEFAULTS_V2, SKIP_REQUEST_ID));
  text += member('config', without(record.config, CONFIG_DEFAULTS_V2, NO_SKIP));
  text += `,"positions":{"books":"${encodeOffsets(record.positions.books)}","venues":"${encodeOffsets(record.positions.venues)}"}`;
  if (record.status !== RECORD_DEFAULTS_V2.status) text += member('status', record.status);
  text += `,"sha256":"${hexToBase64url(record.responseSha256)}"`;
  text += member('bytes', record.responseBytes);
  // A v2 stream's tick only: REST answers and v1 ticks are written as before.
  if (record.cause !== undefined) text += member('cause', record.cause);
  // The response is already JSON text: splice it in rather than parse and re-serialise it.
  return responseText === null ? `${text}}` : `${text},"response":${responseText}}`;
}

/** `,"key":<JSON of value>`, or nothing where JSON.stringify would leave the member out (undefined). */
function member(key: string, value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  return json === undefined ? '' : `,"${key}":${json}`;
}

function object(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new JournalError('bad_field', field, 'must be a JSON object');
  return v as Obj;
}

function known(o: Obj, keys: ReadonlySet<string>, field: string): void {
  // A mistyped key would otherwise fall back to a default and change the quote silently.
  for (const k of Object.keys(o))
    if (!keys.has(k)) throw new JournalError('bad_field', `${field}.${k}`, 'is not a known field');
}

/**
 * A v2 stored request back in full, ready for validateStoredRequest: the v2 defaults under what
 * was stored, and the record's requestId (a stored one must equal it).
 */
export function expandRequestV2(stored: unknown, requestId: string): Obj {
  const o = object(stored, 'request');
  known(o, REQUEST_KEYS, 'request');
  if ('requestId' in o && o.requestId !== requestId)
    throw new JournalError('bad_field', 'request.requestId', `must equal requestId '${requestId}'`);
  return { ...REQUEST_DEFAULTS_V2, ...o, requestId };
}

/** A v2 stored config back in full (defaults under what was stored); validated by the caller. */
export function expandConfigV2(stored: unknown): Obj {
  const o = object(stored, 'config');
  known(o, CONFIG_KEYS, 'config');
  return { ...CONFIG_DEFAULTS_V2, ...o };
}

/**
 * The v2 text of a stream frame record: the hash as `sha256` in base64url, the length as `bytes`;
 * a v2 stream's frame adds streamId, id, seq, tick and ticksSkipped.
 */
export function encodeFrameRecord(frame: Omit<FrameRecord, 'v' | 'type'>): string {
  return JSON.stringify({
    v: 2,
    type: 'quote_frame',
    requestId: frame.requestId,
    tickId: frame.tickId,
    sha256: hexToBase64url(frame.responseSha256),
    bytes: frame.responseBytes,
    ...(frame.calculatedAt === undefined ? {} : { calculatedAt: frame.calculatedAt }),
    // A v2 frame only (v1 frames are written as before): flat, after the fields every frame has.
    ...frame.stream,
  });
}
