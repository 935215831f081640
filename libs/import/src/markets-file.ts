import { MARKET_RULE_FIELDS, type MarketRuleField } from '@app/events';
import { ImportUsageError } from './problems';
import { tardisExchange } from './tardis-exchanges';

/** What a `--markets` entry gives one market: its taker fee and its order rules (docs/semantics.md section 13). */
export interface MarketTerms {
  /** A fraction in [0, 1), or null: the router applies its default taker fee. */
  readonly takerFeeRate: number | null;
  /** Only the rules the entry names (each a number > 0, or null for unknown). */
  readonly rules: Readonly<Partial<Record<MarketRuleField, number | null>>>;
}

/** `--markets`: per venue id, per unified symbol (or `*` for the venue's other markets). */
export type MarketsFile = ReadonlyMap<string, ReadonlyMap<string, MarketTerms>>;

const FIELDS = new Set<string>(['takerFeeRate', ...MARKET_RULE_FIELDS]);

/** Validate a decoded `--markets` file; throws ImportUsageError naming the first bad entry. */
export function parseMarketsFile(value: unknown, name: string): MarketsFile {
  const bad = (what: string): never => {
    throw new ImportUsageError(`--markets ${name}: ${what}`);
  };
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(value)) return bad('the file must be an object of venues');
  const out = new Map<string, Map<string, MarketTerms>>();
  for (const [venue, markets] of Object.entries(value)) {
    const mapped = tardisExchange(venue)?.ccxt;
    if (mapped !== undefined && mapped !== venue)
      bad(`'${venue}' is a tardis.dev exchange id: key its markets by the venue id '${mapped}'`);
    if (!isObj(markets)) return bad(`${venue} must be an object of markets`);
    const own = new Map<string, MarketTerms>();
    for (const [symbol, terms] of Object.entries(markets)) {
      const at = `${venue}.${symbol}`;
      if (symbol !== '*' && !/^[^/\s:]+\/[^/\s:]+$/.test(symbol)) bad(`${at}: a market is BASE/QUOTE or *`);
      if (!isObj(terms)) return bad(`${at} must be an object`);
      for (const k of Object.keys(terms))
        if (!FIELDS.has(k)) bad(`${at}.${k} is not a field (${[...FIELDS].join(', ')})`);
      const fee = terms.takerFeeRate ?? null;
      if (fee !== null && (typeof fee !== 'number' || !Number.isFinite(fee) || fee < 0 || fee >= 1))
        bad(`${at}.takerFeeRate must be null or a fraction in [0, 1), got ${JSON.stringify(fee)}`);
      const rules: Partial<Record<MarketRuleField, number | null>> = {};
      for (const f of MARKET_RULE_FIELDS) {
        if (!(f in terms)) continue;
        const v = terms[f];
        if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0))
          bad(`${at}.${f} must be null or a finite number > 0, got ${JSON.stringify(v)}`);
        rules[f] = v as number | null;
      }
      own.set(symbol, { takerFeeRate: fee as number | null, rules });
    }
    out.set(venue, own);
  }
  return out;
}

/** The terms of one market: its own entry, else its venue's `*`, else none. */
export function termsOf(file: MarketsFile | null, venue: string, symbol: string): MarketTerms | null {
  const own = file?.get(venue);
  return own?.get(symbol) ?? own?.get('*') ?? null;
}
