import {
  decodeUtf8Body,
  parseRouteBody,
  parseStrictJson,
  REQUEST_LIMITS,
  type RouteParams,
} from '@app/request';
import { PUSH_FLOOR_MS } from '../frame-budget';

/** The largest client message read (bytes); a larger one gets an error and is not parsed. */
export const CLIENT_MESSAGE_MAX_BYTES = 8 * 1024;
/** The longest minIntervalMs a subscription may ask for. */
export const MAX_INTERVAL_MS = 60_000;
/** A subscription id: what a client names it by (unique per connection). */
const ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** A streamId the server minted (a UUID); anything else cannot name one of its streams. */
const STREAM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ResumePoint {
  readonly streamId: string;
  readonly seq: number;
}

export type ClientMessage =
  | {
      readonly type: 'subscribe';
      readonly id: string;
      readonly params: RouteParams;
      readonly minIntervalMs: number;
      readonly resume: ResumePoint | null;
    }
  | { readonly type: 'unsubscribe'; readonly id: string }
  | { readonly type: 'list' }
  | { readonly type: 'ping'; readonly id: string };

export type ClientOp = ClientMessage['type'];

/** Why a message was refused: answered with an `error` message, the socket stays open. */
export interface MessageRefusal {
  readonly ok: false;
  /** The message's id and type when they could be read (so the client can pair the error). */
  readonly id: string | null;
  readonly op: string | null;
  readonly code: 'bad_message' | 'invalid_request';
  readonly status: 400 | 414;
  readonly message: string;
}

export type ClientParse = { readonly ok: true; readonly message: ClientMessage } | MessageRefusal;

const FIELDS: Readonly<Record<ClientOp, readonly string[]>> = {
  subscribe: ['type', 'id', 'route', 'minIntervalMs', 'resume'],
  unsubscribe: ['type', 'id'],
  list: ['type'],
  ping: ['type', 'id'],
};

/**
 * One client message: UTF-8 text of at most CLIENT_MESSAGE_MAX_BYTES, read by the same hardened
 * JSON reader as POST /route's body (no repeated or prototype keys, bounded depth and keys), then
 * checked field by field; `route` follows the POST /route body rules in stream mode.
 */
export function parseClientMessage(data: Buffer, isBinary: boolean): ClientParse {
  if (isBinary) return refuse(null, null, 'messages are JSON text frames, not binary');
  if (data.length > CLIENT_MESSAGE_MAX_BYTES)
    return refuse(
      null,
      null,
      `a message is at most ${CLIENT_MESSAGE_MAX_BYTES} bytes (this one has ${data.length})`,
    );
  const text = decodeUtf8Body(data);
  if (!text.ok) return refuse(null, null, text.error.replace(/^body/, 'message'));
  const json = parseStrictJson(text.text, {
    depth: REQUEST_LIMITS.jsonDepth + 1,
    keys: REQUEST_LIMITS.jsonKeys,
  });
  if (!json.ok) return refuse(null, null, `message is not valid JSON: ${json.error}`);
  const m = json.value;
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    return refuse(null, null, 'a message is a JSON object');
  const fields = m as Record<string, unknown>;
  const rawId = fields['id'];
  const id = typeof rawId === 'string' && ID.test(rawId) ? rawId : null;
  const type = fields['type'];
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type))
    return refuse(id, null, 'type must be one of subscribe, unsubscribe, list, ping');
  const op = type as ClientOp;
  const unknown = Object.keys(fields).find((k) => !FIELDS[op].includes(k));
  if (unknown !== undefined)
    return refuse(id, op, `unknown field ${JSON.stringify(unknown.slice(0, 64))} in ${op}`);
  if (op === 'list') return { ok: true, message: { type: op } };
  if (id === null) return refuse(null, op, 'id must be a string of 1 to 64 letters, digits or ._:-');
  if (op !== 'subscribe') return { ok: true, message: { type: op, id } };
  return parseSubscribe(id, fields);
}

function parseSubscribe(id: string, fields: Record<string, unknown>): ClientParse {
  const interval = fields['minIntervalMs'] ?? PUSH_FLOOR_MS;
  if (
    !Number.isInteger(interval) ||
    (interval as number) < PUSH_FLOOR_MS ||
    (interval as number) > MAX_INTERVAL_MS
  )
    return refuse(
      id,
      'subscribe',
      `minIntervalMs must be an integer from ${PUSH_FLOOR_MS} to ${MAX_INTERVAL_MS}`,
    );
  let resume: ResumePoint | null = null;
  const r = fields['resume'];
  if (r !== undefined) {
    const point = r as Record<string, unknown>;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      !Array.isArray(r) &&
      Object.keys(point).every((k) => k === 'streamId' || k === 'seq') &&
      typeof point['streamId'] === 'string' &&
      STREAM_ID.test(point['streamId']) &&
      Number.isSafeInteger(point['seq']) &&
      (point['seq'] as number) >= 0;
    if (!ok)
      return refuse(
        id,
        'subscribe',
        'resume must be {"streamId": a streamId this server sent, "seq": an integer >= 0}',
      );
    resume = { streamId: point['streamId'] as string, seq: point['seq'] as number };
  }
  if (fields['route'] === undefined)
    return refuse(id, 'subscribe', 'route is required: the POST /route body');
  const parsed = parseRouteBody(fields['route'], 'stream');
  if (!parsed.ok)
    return {
      ok: false,
      id,
      op: 'subscribe',
      code: 'invalid_request',
      status: parsed.status,
      message: parsed.error,
    };
  return {
    ok: true,
    message: { type: 'subscribe', id, params: parsed.params, minIntervalMs: interval as number, resume },
  };
}

function refuse(id: string | null, op: string | null, message: string): MessageRefusal {
  return { ok: false, id, op, code: 'bad_message', status: 400, message };
}
