import { BookState } from './book-state';
import type { BookLookup, Input } from './input';
import { termsOf, type MarketsFile } from './markets-file';
import type { Problems } from './problems';
import type { SymbolMapper, VenueCatalog } from './symbol-map';

/** A tardis (exchange, symbol) the import could not map, and why. */
export interface Unmapped {
  readonly exchange: string;
  readonly symbol: string;
  readonly why: string;
}

/**
 * The books of the output, found by their tardis (exchange, symbol): mapped on first sight, each
 * with the venue and market records the fold writes before its first book record. A symbol that cannot be
 * mapped, or two that map to the same book, make the import fail at its end (every one named)
 * unless unmapped symbols are to be skipped.
 */
export class BookDirectory implements BookLookup {
  readonly unmapped: Unmapped[] = [];
  readonly collisions: string[] = [];
  /** Markets written with terms from --markets, and without (fee null, no rules). */
  withTerms = 0;
  withoutTerms = 0;
  private readonly books = new Map<string, BookState | null>();
  private readonly nativeOf = new Map<string, string>();
  private readonly refused = new Set<string>();
  readonly mapping: { native: string; unified: string }[] = [];

  constructor(
    private readonly mapper: SymbolMapper,
    private readonly catalog: VenueCatalog,
    private readonly markets: MarketsFile | null,
    private readonly problems: Problems,
    private readonly skipUnmapped: boolean,
  ) {}

  /** The import cannot succeed: a symbol is unmapped (and not to be skipped) or two collide. */
  get failed(): boolean {
    return this.collisions.length > 0 || (!this.skipUnmapped && this.unmapped.length > 0);
  }

  book(exchange: string, symbol: string, source: string, input: Input): BookState | null {
    const key = `${exchange}\u0000${symbol}`;
    let book = this.books.get(key);
    if (book === undefined) {
      book = this.create(exchange, symbol, source);
      this.books.set(key, book);
    }
    if (book === null || book.source === source) return book;
    const once = `${key}\u0000${input.index}\u0000${source}`;
    if (!this.refused.has(once)) {
      this.refused.add(once);
      this.problems.add(
        'second_source',
        input.name,
        input.line,
        `${exchange} ${symbol} is already fed by ${book.source}; this file's ${source} rows for it are left out`,
      );
    }
    return null;
  }

  private create(exchange: string, symbol: string, source: string): BookState | null {
    const m = this.mapper.map(exchange, symbol);
    if (!m.ok) {
      this.unmapped.push({ exchange, symbol, why: m.why });
      return null;
    }
    const unified = `${m.venue}\u0000${m.symbol}`;
    const other = this.nativeOf.get(unified);
    if (other !== undefined) {
      this.collisions.push(`${other} and ${exchange} ${symbol} both map to ${m.venue} ${m.symbol}`);
      return null;
    }
    this.nativeOf.set(unified, `${exchange} ${symbol}`);
    this.mapping.push({ native: `${exchange} ${symbol}`, unified: `${m.venue} ${m.symbol}` });
    const terms = termsOf(this.markets, m.venue, m.symbol);
    if (terms === null) this.withoutTerms++;
    else this.withTerms++;
    const venue = { certified: this.catalog.certified(m.venue), connected: true, lastError: null };
    const market = {
      symbol: m.symbol,
      base: m.base,
      quote: m.quote,
      takerFeeRate: terms?.takerFeeRate ?? null,
      ...(terms?.rules ?? {}),
    };
    return new BookState(m.venue, m.symbol, source, { venue, market });
  }
}
