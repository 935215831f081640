import type { Balances } from '@app/routing';
import { balancesFromObject, parseBalances } from './balances';
import { REQUEST_LIMITS, isPrototypeKey, shown } from './limits';
import type { ParamSpec } from './params';
import { ASSET_ANY_CASE, VENUE, commaList, isDigits, isPlainDecimal } from './scan';

/**
 * A parameter as a client supplied it: query strings give text; JSON bodies and schedule files
 * give JSON values (numbers, booleans, arrays, objects), whose string forms follow the query rules.
 */
export type Supplied = { readonly text: string } | { readonly json: unknown };

/** A parsed value by kind: string, number, boolean, string list or balances. */
export type ParamValue = string | number | boolean | readonly string[] | Balances;
export type ValueParse =
  { readonly ok: true; readonly value: ParamValue } | { readonly ok: false; readonly error: string };

/** Parse one supplied parameter against its spec; never throws, linear in the value's length. */
export function parseValue(spec: ParamSpec, supplied: Supplied): ValueParse {
  if ('text' in supplied) return fromText(spec, supplied.text);
  const v = supplied.json;
  if (typeof v === 'string') return fromText(spec, v);
  switch (spec.kind) {
    case 'number':
    case 'epochMs':
      return typeof v === 'number' ? fromNumber(spec, v) : fail(`${spec.name} must be a number`);
    case 'flag':
      return typeof v === 'boolean' ? ok(v) : fail(`${spec.name} must be a boolean`);
    case 'list':
      return Array.isArray(v)
        ? fromArray(spec, v)
        : fail(`${spec.name} must be an array of strings or a comma-separated string`);
    case 'balances':
      if (Array.isArray(v)) return balancesArray(v);
      if (typeof v === 'object' && v !== null)
        return fromBalances(balancesFromObject(v as Record<string, unknown>));
      return fail('balances must be a string, an array or an object');
    case 'asset':
    case 'enum':
      return fail(`${spec.name} must be a string`);
  }
}

function fromText(spec: ParamSpec, text: string): ValueParse {
  const cap = spec.kind === 'list' ? REQUEST_LIMITS.listChars : REQUEST_LIMITS.valueChars;
  if (spec.kind !== 'balances' && text.length > cap)
    return fail(`${spec.name} is longer than ${cap} characters`);
  switch (spec.kind) {
    case 'asset': {
      // Checked before upper-casing: 'ß'.toUpperCase() is 'SS', which must not pass as an asset.
      const trimmed = text.trim();
      return ASSET_ANY_CASE.test(trimmed)
        ? ok(trimmed.toUpperCase())
        : fail(`${spec.name} must be an asset symbol matching ^[A-Z0-9._-]{1,32}$ after trim and upper-case`);
    }
    case 'number': {
      const kind = spec.integer === true ? 'an integer' : 'a number';
      if (!isPlainDecimal(text))
        return fail(`${spec.name} must be ${kind} written as a plain decimal, got ${shown(text)}`);
      return fromNumber(spec, Number(text), text);
    }
    case 'epochMs':
      return isDigits(text) && text.length <= 16 && Number.isSafeInteger(Number(text))
        ? ok(Number(text))
        : fail(`${spec.name} must be a plain integer of epoch milliseconds, got ${shown(text)}`);
    case 'enum':
      return spec.values.includes(text)
        ? ok(text)
        : fail(`${spec.name} must be ${alternatives(spec.values)}`);
    case 'flag':
      // Parsing rules 1-2: only the exact string flips the default; any other text leaves it.
      return ok(spec.only === 'true' ? text === 'true' : text !== 'false');
    case 'list':
      return listOf(spec, commaList(text));
    case 'balances':
      return fromBalances(parseBalances(text));
  }
}

function fromNumber(spec: ParamSpec, n: number, text = String(n)): ValueParse {
  if (spec.kind === 'epochMs')
    return Number.isSafeInteger(n) && n >= 0
      ? ok(n)
      : fail(`${spec.name} must be a plain integer of epoch milliseconds, got ${shown(text)}`);
  if (spec.kind !== 'number') return fail(`${spec.name} must not be a number`);
  const kind = spec.integer === true ? 'an integer' : 'a number';
  if (!Number.isFinite(n)) return fail(`${spec.name} must be finite, got ${shown(text)}`);
  const range =
    spec.max !== undefined
      ? `from ${spec.min} to ${spec.max}`
      : spec.minExclusive === true
        ? `> ${spec.min}`
        : `>= ${spec.min}`;
  if (spec.integer === true && !Number.isInteger(n))
    return fail(`${spec.name} must be an integer ${range}, got ${shown(text)}`);
  const low = spec.minExclusive === true ? n <= spec.min : n < spec.min;
  if (low || (spec.max !== undefined && n > spec.max))
    return fail(`${spec.name} must be ${kind} ${range}, got ${shown(text)}`);
  return ok(n);
}

function fromArray(spec: ParamSpec, items: readonly unknown[]): ValueParse {
  for (const item of items)
    if (typeof item !== 'string' || item.includes(',') || item.trim() === '')
      return fail(`${spec.name} entries must be non-empty strings without commas`);
  return listOf(
    spec,
    (items as string[]).map((s) => s.trim()),
  );
}

/** Bridges: upper-cased, caller order, deduplicated. Exchanges: case kept, deduplicated (sorted later). */
function listOf(spec: ParamSpec, items: readonly string[]): ValueParse {
  if (spec.kind !== 'list') return fail(`${spec.name} must not be a list`);
  if (items.length > spec.maxItems) return fail(`${spec.name} has more than ${spec.maxItems} entries`);
  const out: string[] = [];
  for (const raw of items) {
    const item = spec.item === 'asset' ? raw.toUpperCase() : raw;
    const valid =
      spec.item === 'asset' ? ASSET_ANY_CASE.test(raw) : VENUE.test(item) && !isPrototypeKey(item);
    if (!valid)
      return fail(
        spec.item === 'asset'
          ? `${spec.name} must be a comma-separated list of assets (empty disables bridging)`
          : `${spec.name} must be a comma-separated list of venue ids (empty means no venues)`,
      );
    if (!out.includes(item)) out.push(item);
  }
  return ok(out);
}

function balancesArray(items: readonly unknown[]): ValueParse {
  for (const item of items)
    if (typeof item !== 'string' || item.includes(',') || item.trim() === '')
      return fail('balances entries must be non-empty strings without commas');
  if (items.length > REQUEST_LIMITS.balancesEntries)
    return fail(`balances has more than ${REQUEST_LIMITS.balancesEntries} entries`);
  return fromBalances(parseBalances((items as string[]).join(',')));
}

function fromBalances(parsed: ReturnType<typeof parseBalances>): ValueParse {
  return parsed.ok ? ok(parsed.balances) : fail(parsed.error);
}

function alternatives(values: readonly string[]): string {
  return values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
}

function ok(value: ParamValue): ValueParse {
  return { ok: true, value };
}

function fail(error: string): ValueParse {
  return { ok: false, error };
}
