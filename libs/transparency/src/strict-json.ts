/** Why a receipt, key list or proof document was refused; `field` names the JSON member. */
export type FormatErrorCode =
  | 'too_large'
  | 'not_base64url'
  | 'not_json'
  | 'not_object'
  | 'bad_version'
  | 'missing_field'
  | 'unknown_field'
  | 'bad_field'
  | 'not_canonical'
  | 'duplicate_key';

export interface FormatError {
  readonly code: FormatErrorCode;
  readonly field: string | null;
  readonly detail: string;
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: FormatError };

export const refuse = <T>(code: FormatErrorCode, field: string | null, detail: string): Parsed<T> => ({
  ok: false,
  error: { code, field, detail },
});

/** Thrown inside a parser and caught at its edge, so field checks read as one straight list. */
export class Refusal extends Error {
  constructor(readonly error: FormatError) {
    super(error.detail);
  }
}

/** Run a parser body that throws Refusal, as a Parsed value. */
export function parsing<T>(body: () => T): Parsed<T> {
  try {
    return { ok: true, value: body() };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.error };
    throw e;
  }
}

export function fail(code: FormatErrorCode, field: string | null, detail: string): never {
  throw new Refusal({ code, field, detail });
}

/** JSON.parse of a bounded text, or a not_json/too_large refusal. JSON.parse is linear. */
export function parseJsonText(text: string, maxChars: number): unknown {
  if (text.length > maxChars) fail('too_large', null, `over ${maxChars} characters`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail('not_json', null, 'not JSON');
  }
}

/** `value` as an object with exactly `keys` (prefix names nested members in errors). */
export function exactObject(value: unknown, keys: readonly string[], prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail('not_object', prefix || null, 'not a JSON object');
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj))
    if (!keys.includes(k)) fail('unknown_field', prefix + k, 'not a field of this format');
  for (const k of keys) if (!(k in obj)) fail('missing_field', prefix + k, 'required');
  return obj;
}

/** A string member matching `pattern`. */
export function text(obj: Record<string, unknown>, key: string, pattern: RegExp, field = key): string {
  const v = obj[key];
  if (typeof v !== 'string' || !pattern.test(v)) fail('bad_field', field, `must match ${String(pattern)}`);
  return v;
}

/** An integer member in [0, 2^53 - 1] (or null when `nullable`). */
export function count(obj: Record<string, unknown>, key: string, field = key): number {
  const v = obj[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    fail('bad_field', field, 'must be an integer >= 0');
  return v;
}

export function countOrNull(obj: Record<string, unknown>, key: string, field = key): number | null {
  return obj[key] === null ? null : count(obj, key, field);
}

/** An origin: printable ASCII without space or '+', 1 to 128 characters (a note key name). */
export const ORIGIN = /^[!-*,-~]{1,128}$/;
/** A requestId as the API accepts one (`^[\w.\-]{1,200}$`). */
export const REQUEST_ID = /^[A-Za-z0-9_.-]{1,200}$/;
