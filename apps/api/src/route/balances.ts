import type { Balances } from '@app/routing';
import { PLAIN_DECIMAL } from './plain-number';
import { ASSET } from './route-patterns';

export type BalancesParse =
  { readonly ok: true; readonly balances: Balances } | { readonly ok: false; readonly error: string };

/**
 * Parse `[venue.]ASSET:amount,...` (clarifications 8). The first '.' separates the venue; an
 * explicitly empty string means holding nothing. Assets are upper-cased; amounts finite and >= 0.
 */
export function parseBalances(raw: string): BalancesParse {
  const defaults: Record<string, number> = {};
  const perVenue: Record<string, Record<string, number>> = {};
  const text = raw.trim();
  const entries = text === '' ? [] : text.split(',');
  for (const entry of entries) {
    const m = /^\s*(?:([^.:\s]+)\.)?([^:\s]+)\s*:\s*(\S+)\s*$/.exec(entry);
    if (m === null) return fail(`balances entry '${entry}' must have the form [venue.]ASSET:amount`);
    const venue = m[1];
    const asset = m[2]!.toUpperCase();
    const amountText = m[3]!;
    if (!ASSET.test(asset)) return fail(`balances entry '${entry}' has an invalid asset '${m[2]}'`);
    const amount = Number(amountText);
    if (!PLAIN_DECIMAL.test(amountText) || !Number.isFinite(amount) || amount < 0) {
      return fail(`balances entry '${entry}' must have a finite amount >= 0`);
    }
    const holdings = venue === undefined ? defaults : (perVenue[venue] ??= {});
    if (holdings[asset] !== undefined)
      return fail(`balances lists ${venue === undefined ? '' : `${venue}.`}${asset} more than once`);
    holdings[asset] = amount;
  }
  return { ok: true, balances: { default: defaults, perVenue } };
}

function fail(error: string): BalancesParse {
  return { ok: false, error };
}
