import type { Balances } from '@app/routing';
import { balancesFromObject, parseBalances, type BalancesParse } from './balances';
import { REQUEST_LIMITS, shown } from './limits';
import { paramRange, type DeclaredParam } from './params';
import { epochMsMessage } from './rule-messages';
import { asciiUpper, commaList, isDigits, isPlainDecimal } from './scan';

/**
 * A parameter as a client supplied it: query strings give text; JSON bodies and schedule files
 * give JSON values (numbers, booleans, arrays, objects), whose string forms follow the query rules.
 */
export type Supplied = { readonly text: string } | { readonly json: unknown };

/** A parameter's value once valid: string, number, boolean, string list or balances. */
export type ParamValue = string | number | boolean | readonly string[] | Balances;

/**
 * What the scanners make of one supplied value before the DTO's rules see it: the decoded value
 * (with a number's `text` as written, for the messages that quote it), or why it is not written
 * in a form its parameter takes. A JSON value of another type passes as it is: the DTO's type
 * check names it.
 */
export type Decoded =
  | { readonly ok: true; readonly value: unknown; readonly text?: string }
  | { readonly ok: false; readonly error: string };

/** Decode one supplied parameter by its declared form; never throws, linear in the value's length. */
export function decodeParam(p: DeclaredParam, supplied: Supplied): Decoded {
  if ('text' in supplied) return fromText(p, supplied.text);
  const v = supplied.json;
  if (typeof v === 'string') return fromText(p, v);
  switch (p.form) {
    case 'number':
      // A JSON number literal too large for a double reads as Infinity.
      return typeof v === 'number' && !Number.isFinite(v)
        ? fail(`${p.name} must be finite, got ${shown(String(v))}`)
        : ok(v);
    case 'epochMs':
      return typeof v === 'number' && !Number.isFinite(v) ? fail(epochMsMessage(p.name, String(v))) : ok(v);
    case 'assetList':
    case 'venueList':
      return Array.isArray(v) ? fromArray(p, v) : ok(v);
    case 'balances':
      if (Array.isArray(v)) return balancesArray(v);
      if (typeof v === 'object' && v !== null)
        return fromBalances(balancesFromObject(v as Record<string, unknown>));
      return ok(v);
    case 'asset':
    case 'enum':
    case 'flag':
      return ok(v);
  }
}

function fromText(p: DeclaredParam, text: string): Decoded {
  const list = p.form === 'assetList' || p.form === 'venueList';
  const cap = list ? REQUEST_LIMITS.listChars : REQUEST_LIMITS.valueChars;
  if (p.form !== 'balances' && text.length > cap) return fail(`${p.name} is longer than ${cap} characters`);
  switch (p.form) {
    case 'asset':
      return ok(asciiUpper(text.trim()));
    case 'number': {
      if (!isPlainDecimal(text)) {
        const kind = paramRange(p.name).integer ? 'an integer' : 'a number';
        return fail(`${p.name} must be ${kind} written as a plain decimal, got ${shown(text)}`);
      }
      const n = Number(text);
      return Number.isFinite(n)
        ? { ok: true, value: n, text }
        : fail(`${p.name} must be finite, got ${shown(text)}`);
    }
    case 'epochMs':
      return isDigits(text) && text.length <= 16
        ? { ok: true, value: Number(text), text }
        : fail(epochMsMessage(p.name, text));
    case 'enum':
      return ok(text);
    case 'flag':
      // Parsing rules 1-2: only the exact word that flips the default does; any other text leaves it.
      return ok(p.doc.default === true ? text !== 'false' : text === 'true');
    case 'assetList':
      return ok(commaList(text).map(asciiUpper));
    case 'venueList':
      return ok(commaList(text));
    case 'balances':
      return fromBalances(parseBalances(text));
  }
}

function fromArray(p: DeclaredParam, items: readonly unknown[]): Decoded {
  for (const item of items)
    if (typeof item !== 'string' || item.includes(',') || item.trim() === '')
      return fail(`${p.name} entries must be non-empty strings without commas`);
  const trimmed = (items as string[]).map((s) => s.trim());
  return ok(p.form === 'assetList' ? trimmed.map(asciiUpper) : trimmed);
}

function balancesArray(items: readonly unknown[]): Decoded {
  for (const item of items)
    if (typeof item !== 'string' || item.includes(',') || item.trim() === '')
      return fail('balances entries must be non-empty strings without commas');
  if (items.length > REQUEST_LIMITS.balancesEntries)
    return fail(`balances has more than ${REQUEST_LIMITS.balancesEntries} entries`);
  return fromBalances(parseBalances((items as string[]).join(',')));
}

function fromBalances(parsed: BalancesParse): Decoded {
  return parsed.ok ? ok(parsed.balances) : fail(parsed.error);
}

function ok(value: unknown): Decoded {
  return { ok: true, value };
}

function fail(error: string): Decoded {
  return { ok: false, error };
}
