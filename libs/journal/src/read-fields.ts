import { JournalError } from './journal-error';
import type { JournalRequest } from './quote-record';

/** A stored request checked, or the field it breaks and the rule's message. */
export type RequestCheck =
  | { readonly ok: true; readonly request: JournalRequest }
  | { readonly ok: false; readonly field: string; readonly error: string };

/**
 * The rules a stored request is checked against. They are the request model's (libs/request's
 * validateStoredRequest, built on class-validator), passed in by the callers so that this format
 * library loads no validator and stays pure.
 */
export type RequestValidator = (value: unknown) => RequestCheck;

/** A decoded JSON object whose fields are read one by one (each failure names its field). */
export type Obj = Record<string, unknown>;

export function obj(v: unknown, path: string | null): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new JournalError(path === null ? 'not_object' : 'bad_field', path, 'must be a JSON object');
  return v as Obj;
}

export function get(o: Obj, path: string, key: string): unknown {
  if (!(key in o) || o[key] === undefined)
    throw new JournalError('missing_field', join(path, key), 'is missing');
  return o[key];
}

export const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

export function str(o: Obj, path: string, key: string, allowEmpty = false): string {
  const v = get(o, path, key);
  if (typeof v !== 'string' || (!allowEmpty && v.length === 0))
    throw new JournalError('bad_field', join(path, key), `must be a ${allowEmpty ? '' : 'non-empty '}string`);
  return v;
}

export function num(o: Obj, path: string, key: string, min = -Infinity): number {
  const v = get(o, path, key);
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min)
    throw new JournalError(
      'bad_field',
      join(path, key),
      `must be a finite number${min > -Infinity ? ` >= ${min}` : ''}`,
    );
  return v;
}

export function int(o: Obj, path: string, key: string): number {
  const v = num(o, path, key, 0);
  if (!Number.isSafeInteger(v))
    throw new JournalError('bad_field', join(path, key), 'must be a non-negative integer');
  return v;
}

export function oneOf<T extends string>(o: Obj, path: string, key: string, values: readonly T[]): T {
  const v = get(o, path, key);
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw new JournalError('bad_field', join(path, key), `must be one of ${values.join(', ')}`);
  return v as T;
}
