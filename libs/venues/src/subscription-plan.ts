import type { VenueSettings } from './options';

/** One watch loop: the books one subscribe request carries. */
export interface SubscriptionGroup {
  readonly index: number;
  readonly symbols: string[];
  /** Watched with watchOrderBookForSymbols (one request for all), else watchOrderBook (one book). */
  readonly multi: boolean;
}

export interface SubscriptionPlan {
  readonly groups: SubscriptionGroup[];
  /** ccxt symbol -> alias symbols published from its book (coinbase: BTC/USD -> BTC/USDC). */
  readonly aliasesOf: ReadonlyMap<string, string[]>;
  readonly warnings: string[];
}

/**
 * Split a venue's symbols into subscription groups by its rules: aliases are not subscribed (their
 * target's book feeds them; the target is added when only the alias was selected), at most
 * `perConnection` books (the rest skipped with a warning), groups of `perRequest` (capped by
 * `cap`) where ccxt has watchOrderBookForSymbols, one book per group otherwise.
 */
export function planSubscriptions(
  symbols: readonly string[],
  venue: Pick<VenueSettings, 'rule' | 'exchangeId'>,
  has: Readonly<Record<string, unknown>>,
  cap: number,
): SubscriptionPlan {
  const { rule } = venue;
  const warnings: string[] = [];
  const aliasesOf = new Map<string, string[]>();
  const watched: string[] = [];
  const selected = new Set(symbols);
  for (const s of symbols) {
    const target = rule.aliases?.[s];
    if (target === undefined) {
      if (!watched.includes(s)) watched.push(s);
      continue;
    }
    const list = aliasesOf.get(target) ?? [];
    list.push(s);
    aliasesOf.set(target, list);
    if (!selected.has(target) && !watched.includes(target)) watched.push(target);
  }
  let books = watched;
  if (rule.perConnection !== null && watched.length > rule.perConnection) {
    books = watched.slice(0, rule.perConnection);
    warnings.push(
      `the venue allows ${rule.perConnection} books per connection; ${watched.length - books.length} skipped: ${watched.slice(rule.perConnection).join(', ')}`,
    );
    for (const s of watched.slice(rule.perConnection)) aliasesOf.delete(s);
  }
  const multi = has.watchOrderBookForSymbols === true;
  const size = multi ? Math.max(1, Math.min(rule.perRequest, cap)) : 1;
  const groups: SubscriptionGroup[] = [];
  for (let i = 0; i < books.length; i += size)
    groups.push({ index: groups.length, symbols: books.slice(i, i + size), multi: multi && size > 1 });
  return { groups, aliasesOf, warnings };
}
