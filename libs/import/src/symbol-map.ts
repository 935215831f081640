import { ImportUsageError } from './problems';
import { splitSymbol } from './symbol-rule';
import { tardisExchange } from './tardis-exchanges';

/** What the import asks of the pinned ccxt (apps wire the real one; see ccxt-catalog.ts). */
export interface VenueCatalog {
  /** The code the ccxt class `venue` uses for the venue's currency `code` (XBT -> BTC); else `code`. */
  currency(venue: string, code: string): string;
  /** The ccxt class's `certified` flag; false for an id that is not a ccxt class. */
  certified(venue: string): boolean;
}

/** The optional `--symbols` file: venue ids for tardis exchanges, unified symbols for native ones. */
export interface SymbolsFile {
  readonly exchanges: Readonly<Record<string, string>>;
  readonly symbols: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export type Mapped =
  | {
      readonly ok: true;
      readonly venue: string;
      readonly symbol: string;
      readonly base: string;
      readonly quote: string;
    }
  | { readonly ok: false; readonly why: string };

const UNIFIED = /^([^/\s:]+)\/([^/\s:]+)$/;

/** Validate a decoded `--symbols` file; throws ImportUsageError naming the first bad entry. */
export function parseSymbolsFile(value: unknown, name: string): SymbolsFile {
  const bad = (what: string): never => {
    throw new ImportUsageError(`--symbols ${name}: ${what}`);
  };
  const obj = (v: unknown, path: string): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : bad(`${path} must be an object`);
  const root = obj(value, 'the file');
  for (const k of Object.keys(root))
    if (k !== 'exchanges' && k !== 'symbols') bad(`'${k}' is not a key (exchanges, symbols)`);
  const exchanges: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(root.exchanges ?? {}, 'exchanges'))) {
    if (typeof v !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(v))
      bad(`exchanges.${k} must be a venue id (lowercase letters, digits, . _ -)`);
    exchanges[k] = v as string;
  }
  const symbols: Record<string, Record<string, string>> = {};
  for (const [exchange, table] of Object.entries(obj(root.symbols ?? {}, 'symbols'))) {
    const own: Record<string, string> = {};
    for (const [native, unified] of Object.entries(obj(table, `symbols.${exchange}`))) {
      if (typeof unified !== 'string' || !UNIFIED.test(unified))
        bad(
          `symbols.${exchange}.${native} must be a unified symbol BASE/QUOTE, got ${JSON.stringify(unified)}`,
        );
      own[native] = unified as string;
    }
    symbols[exchange] = own;
  }
  return { exchanges, symbols };
}

/**
 * tardis.dev (exchange, symbol) to (venue id, unified symbol): the venue from `--symbols`, else
 * the exchange table; the symbol from `--symbols`, else the venue's rule (symbol-rule.ts) with
 * each code as the ccxt class names it (its commonCurrencies: XBT is BTC on kraken, UST is USDT
 * on bitfinex).
 */
export class SymbolMapper {
  constructor(
    private readonly file: SymbolsFile | null,
    private readonly catalog: VenueCatalog,
  ) {}

  map(exchange: string, native: string): Mapped {
    const entry = tardisExchange(exchange);
    const venue = this.file?.exchanges[exchange] ?? entry?.ccxt;
    if (venue === undefined)
      return {
        ok: false,
        why: `exchange ${exchange} has no class in the pinned ccxt (name a venue id under "exchanges" in --symbols)`,
      };
    const given = this.file?.symbols[exchange]?.[native];
    if (given !== undefined) {
      const [, base, quote] = UNIFIED.exec(given)!;
      return { ok: true, venue, symbol: given, base: base!, quote: quote! };
    }
    if (entry === undefined)
      return {
        ok: false,
        why: `${exchange} ${native}: no symbol rule for ${exchange} (map it under "symbols")`,
      };
    const split = splitSymbol(entry.shape, native);
    if (!split.ok) return { ok: false, why: `${exchange} ${native}: ${split.why} (map it under "symbols")` };
    const own = entry.shape.kind === 'separator' ? entry.shape.codes : undefined;
    const base = own?.[split.base] ?? this.catalog.currency(venue, split.base);
    const quote = own?.[split.quote] ?? this.catalog.currency(venue, split.quote);
    return { ok: true, venue, symbol: `${base}/${quote}`, base, quote };
  }
}
