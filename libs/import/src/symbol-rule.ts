import type { SymbolShape } from './tardis-exchanges';

/** A native symbol split into the venue's own base and quote codes, or why it cannot be. */
export type SplitResult =
  | { readonly ok: true; readonly base: string; readonly quote: string }
  | { readonly ok: false; readonly why: string };

/** A currency code as venues write them: letters and digits (1INCH, USDT). */
const CODE = /^[A-Z0-9]{1,24}$/;

const notSpot = (symbol: string): SplitResult => ({
  ok: false,
  why: `${symbol} is not a spot pair of this venue's form`,
});

/** Split `symbol` by the venue's shape (tardis-exchanges.ts); the codes are still the venue's. */
export function splitSymbol(shape: SymbolShape, symbol: string): SplitResult {
  switch (shape.kind) {
    case 'explicit':
      return { ok: false, why: shape.why };
    case 'separator':
      return bySeparator(shape.sep, shape.reversed === true, shape.prefix, symbol);
    case 'concatenated':
      return byQuote(shape.quotes, symbol);
    case 'bitfinex':
      return bitfinex(symbol);
  }
}

function pair(base: string, quote: string, symbol: string): SplitResult {
  return CODE.test(base) && CODE.test(quote) ? { ok: true, base, quote } : notSpot(symbol);
}

function bySeparator(
  sep: string,
  reversed: boolean,
  prefix: string | undefined,
  symbol: string,
): SplitResult {
  let rest = symbol;
  if (prefix !== undefined) {
    if (!rest.startsWith(prefix)) return notSpot(symbol);
    rest = rest.slice(prefix.length);
  }
  const parts = rest.split(sep);
  if (parts.length !== 2) return notSpot(symbol);
  const [a, b] = parts as [string, string];
  return reversed ? pair(b, a, symbol) : pair(a, b, symbol);
}

function byQuote(quotes: readonly string[], symbol: string): SplitResult {
  if (!CODE.test(symbol)) return notSpot(symbol);
  const found = quotes.filter((q) => symbol.length > q.length + 1 && symbol.endsWith(q));
  if (found.length === 1) return { ok: true, base: symbol.slice(0, -found[0]!.length), quote: found[0]! };
  if (found.length === 0)
    return { ok: false, why: `${symbol} ends with none of this venue's quote currencies` };
  const readings = found.map((q) => `${symbol.slice(0, -q.length)}/${q}`).join(' or ');
  return { ok: false, why: `${symbol} is ambiguous (${readings})` };
}

/** Bitfinex: `tBTCUSD` (three and three letters) or `tAAVE:USD` (longer codes, a colon). */
function bitfinex(symbol: string): SplitResult {
  let s = symbol;
  if (s.includes(':')) {
    // Only bitfinex's own lowercase `t`: an uppercase T may begin the code (TRX:USD).
    if (s.startsWith('t')) s = s.slice(1);
    const parts = s.split(':');
    return parts.length === 2 ? pair(parts[0]!, parts[1]!, symbol) : notSpot(symbol);
  }
  // tardis.dev writes the pair without bitfinex's `t` (BTCUSD), and uppercases it (TBTCUSD).
  if (s.length === 7 && (s.startsWith('t') || s.startsWith('T'))) s = s.slice(1);
  return s.length === 6 ? pair(s.slice(0, 3), s.slice(3), symbol) : notSpot(symbol);
}
