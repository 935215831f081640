import type { Balances } from '@app/routing';
import { REQUEST_LIMITS, isPrototypeKey, shown } from './limits';
import { ASSET, ASSET_ANY_CASE, VENUE, isPlainDecimal } from './scan';

export type BalancesParse =
  { readonly ok: true; readonly balances: Balances } | { readonly ok: false; readonly error: string };

/**
 * Parse `[venue.]ASSET:amount,...` (clarifications 8). The first '.' separates the venue; an
 * explicitly empty string means holding nothing. Assets are upper-cased; amounts plain decimals,
 * finite and >= 0; each holding listed once.
 */
export function parseBalances(raw: string): BalancesParse {
  if (raw.length > REQUEST_LIMITS.balancesChars)
    return fail(`balances is longer than ${REQUEST_LIMITS.balancesChars} characters`);
  const text = raw.trim();
  const entries = text === '' ? [] : text.split(',');
  if (entries.length > REQUEST_LIMITS.balancesEntries)
    return fail(`balances has more than ${REQUEST_LIMITS.balancesEntries} entries`);
  const holdings: [venue: string | null, asset: string, amount: number][] = [];
  for (const entry of entries) {
    const parsed = entryOf(entry);
    if (typeof parsed === 'string') return fail(parsed);
    holdings.push(parsed);
  }
  return collect(holdings);
}

/** The JSON object form {"[venue.]ASSET": amount} (amount a number or a plain-decimal string). */
export function balancesFromObject(obj: Readonly<Record<string, unknown>>): BalancesParse {
  const keys = Object.keys(obj);
  if (keys.length > REQUEST_LIMITS.balancesEntries)
    return fail(`balances has more than ${REQUEST_LIMITS.balancesEntries} entries`);
  const holdings: [string | null, string, number][] = [];
  for (const key of keys) {
    const value = obj[key];
    let amountText: string;
    if (typeof value === 'number') amountText = String(value);
    else if (typeof value === 'string') amountText = value.trim();
    else return fail(`balances amount of ${shown(key)} must be a number`);
    const parsed = holding(key.trim(), amountText, `balances key ${shown(key)}`);
    if (typeof parsed === 'string') return fail(parsed);
    holdings.push(parsed);
  }
  return collect(holdings);
}

function entryOf(entry: string): [string | null, string, number] | string {
  const colon = entry.indexOf(':');
  if (colon < 0) return `balances entry ${shown(entry.trim())} must have the form [venue.]ASSET:amount`;
  return holding(
    entry.slice(0, colon).trim(),
    entry.slice(colon + 1).trim(),
    `balances entry ${shown(entry.trim())}`,
  );
}

function holding(name: string, amountText: string, what: string): [string | null, string, number] | string {
  const dot = name.indexOf('.');
  const venue = dot < 0 ? null : name.slice(0, dot);
  const assetText = dot < 0 ? name : name.slice(dot + 1);
  if (venue !== null && (!VENUE.test(venue) || isPrototypeKey(venue)))
    return `${what} has an invalid venue ${shown(venue)}`;
  const asset = assetText.toUpperCase();
  if (!ASSET_ANY_CASE.test(assetText) || isPrototypeKey(assetText))
    return `${what} has an invalid asset ${shown(assetText)}`;
  const amount = Number(amountText);
  if (!isPlainDecimal(amountText) || !Number.isFinite(amount) || amount < 0)
    return `${what} must have a finite amount >= 0`;
  return [venue, asset, amount];
}

function collect(holdings: readonly [string | null, string, number][]): BalancesParse {
  const defaults: Record<string, number> = {};
  const perVenue: Record<string, Record<string, number>> = {};
  for (const [venue, asset, amount] of holdings) {
    const held = venue === null ? defaults : (perVenue[venue] ??= {});
    if (held[asset] !== undefined)
      return fail(`balances lists ${venue === null ? '' : `${venue}.`}${asset} more than once`);
    held[asset] = amount;
  }
  return { ok: true, balances: { default: defaults, perVenue } };
}

function fail(error: string): BalancesParse {
  return { ok: false, error };
}

/** Where a value breaks the shape of normalised Balances: the path below `balances` and the rule. */
export interface BalancesProblem {
  readonly path: string;
  readonly rule: string;
}

/**
 * Why `value` is not normalised Balances ({default, perVenue}: upper-case asset codes to finite
 * amounts >= 0, per venue id), or null: the rule behind the DTO's IsBalances. Per-venue holdings
 * are checked before the default ones, as stored requests have always been.
 */
export function balancesProblem(value: unknown): BalancesProblem | null {
  if (!isObject(value)) return { path: '', rule: 'must be a JSON object' };
  const perVenue = value.perVenue;
  if (!isObject(perVenue)) return { path: '.perVenue', rule: 'must be a JSON object' };
  for (const venue of Object.keys(perVenue)) {
    if (!VENUE.test(venue) || isPrototypeKey(venue))
      return { path: `.perVenue.${venue}`, rule: 'is not a venue id' };
    const problem = amountsProblem(perVenue[venue], `.perVenue.${venue}`);
    if (problem !== null) return problem;
  }
  return amountsProblem(value.default, '.default');
}

function amountsProblem(value: unknown, path: string): BalancesProblem | null {
  if (!isObject(value)) return { path, rule: 'must be a JSON object' };
  for (const asset of Object.keys(value)) {
    if (!ASSET.test(asset)) return { path: `${path}.${asset}`, rule: 'is not an asset code' };
    const n = value[asset];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      return { path: `${path}.${asset}`, rule: 'must be a finite number >= 0' };
  }
  return null;
}

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
