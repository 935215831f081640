import { SMALLEST_AMOUNT } from './limits';
import type { NumberRange } from './param-decorators';

/*
 * The textual forms the parser accepts, as ECMA regular expressions for the documents (OpenAPI,
 * AsyncAPI), so that a value matches the pattern exactly when the parser takes it. No look-arounds,
 * so generators (schemathesis, Hypothesis) can draw from them. Whitespace is the set String.trim()
 * strips that these documents admit: space, tab, CR, LF. Number texts keep to forms the parser
 * reads as finite and in range: a single-digit exponent, and bounded digit counts where the text
 * itself is not capped at 256 characters.
 */

const S = '[ \\t\\n\\r]*';
const ASSET = '[A-Za-z0-9._-]{1,32}';
const VENUE = '[A-Za-z0-9_-]{1,64}';
/** A holding's name: `venue.ASSET`, or a bare ASSET (which then cannot hold a '.'). */
const HOLDING_NAME = `(${VENUE}\\.${ASSET}|[A-Za-z0-9_-]{1,32})`;
const EXPONENT = '([eE][+-]?0*[0-9])?';
/** >= 0, any length (the 256-character cap bounds the value). */
const NON_NEGATIVE = `(\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)|-(0+(\\.0*)?|\\.0+))${EXPONENT}`;
/** >= 0 with at most 100 digits on each side of the point (balances amounts share a 4096 cap). */
const NON_NEGATIVE_BOUNDED = `(\\+?([0-9]{1,100}(\\.[0-9]{0,100})?|\\.[0-9]{1,100})|-(0{1,100}(\\.0{0,100})?|\\.0{1,100}))${EXPONENT}`;
const POSITIVE = `\\+?(0*[1-9][0-9]*(\\.[0-9]*)?|0*\\.0*[1-9][0-9]*)${EXPONENT}`;
const HOLDING = `${S}${HOLDING_NAME}${S}:${S}${NON_NEGATIVE_BOUNDED}${S}`;

/**
 * A number at least 10^-k written with a one-digit exponent or none: every text with a non-zero
 * integer part (at least 1e-9); a fraction with z zeros after the point and exponent e only while
 * z <= k - 1 + e (its value is then at least 10^(e-z-1) >= 10^-k; one zero more and it is below).
 */
function atLeastPowerOfTen(k: number): string {
  const fraction = (zeros: number): string => `0*\\.0{0,${zeros}}[1-9][0-9]*`;
  const forms = [`0*[1-9][0-9]*(\\.[0-9]*)?${EXPONENT}`, `${fraction(k - 1)}([eE][+-]?0*0)?`];
  for (let e = 1; e <= 9; e++) {
    forms.push(`${fraction(k - 1 + e)}[eE]\\+?0*${e}`);
    if (k - 1 - e >= 0) forms.push(`${fraction(k - 1 - e)}[eE]-0*${e}`);
  }
  return `^\\+?(${forms.join('|')})$`;
}

/** amountIn, amountOut: at least SMALLEST_AMOUNT (a power of ten). */
const AMOUNT = atLeastPowerOfTen(Math.round(-Math.log10(SMALLEST_AMOUNT)));

/** The patterns by name. */
export const TEXT_PATTERNS = Object.freeze({
  /** from, to, bridges items: trimmed, then 1 to 32 of A-Z a-z 0-9 . _ - */
  asset: `^${S}${ASSET}${S}$`,
  /** exchanges items. */
  venueItem: `^${S}${VENUE}${S}$`,
  /** asOf as text: digits only (the value must also be within the log's reach). */
  epochMs: '^[0-9]{1,16}$',
  /** One `[venue.]ASSET:amount` entry. */
  holding: `^${HOLDING}$`,
  /** A key of the balances object form. */
  holdingKey: `^${S}${HOLDING_NAME}${S}$`,
  /** An amount of the balances object form, as text (trimmed). */
  nonNegativeSpaced: `^${S}${NON_NEGATIVE_BOUNDED}${S}$`,
  /** The balances text: comma-separated entries, at most 128; blank means holding nothing. */
  balances: `^${S}(${HOLDING}(,${HOLDING}){0,127})?${S}$`,
  /** A comma-separated list of assets or venue ids; blank means the empty list. */
  list: (item: 'asset' | 'venue', maxItems: number): string => {
    const one = `${S}${item === 'asset' ? ASSET : VENUE}${S}`;
    return `^${S}(${one}(,${one}){0,${maxItems - 1}})?${S}$`;
  },
});

/** The text form of number parameter `name`, in its range (as the DTO's constraints state it). */
export function numberTextPattern(name: string, r: NumberRange): string {
  if (r.integer && r.min === 1 && r.max === undefined) return '^\\+?0*[1-9][0-9]*(\\.0*)?$';
  if (r.exclusive && r.min === 0 && r.max === undefined) return `^${POSITIVE}$`;
  if (!r.integer && !r.exclusive && r.min === SMALLEST_AMOUNT && r.max === undefined) return AMOUNT;
  if (!r.integer && r.min === 0 && r.max === undefined) return `^${NON_NEGATIVE}$`;
  if (!r.integer && r.min === 0 && r.max === 10_000)
    return '^(\\+?0*([0-9]{1,4}(\\.[0-9]*)?|10000(\\.0*)?|\\.[0-9]+)|-(0+(\\.0*)?|\\.0+))$';
  throw new Error(`no text pattern for the range of ${name}: add one`);
}
