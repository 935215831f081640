/**
 * Taker fee rates that win over what ccxt reports, as fractions. ccxt's static fee is missing or
 * wrong for these venues (ccxt 4.5.84): weex writes 0.1 (a percent), p2b a tier table, and the
 * others leave it undefined. Values are each venue's published base-tier spot taker fee.
 */
export const TAKER_FEE_OVERRIDES: Readonly<Record<string, number>> = Object.freeze({
  bingx: 0.001,
  bitget: 0.001,
  p2b: 0.002,
  weex: 0.001,
  xt: 0.002,
});

/** The highest taker fee believed as a fraction; anything above is taken to be a percent or junk. */
export const MAX_TAKER_FEE_RATE = 0.02;

/** Outcome of choosing a market's taker fee. */
export type FeeChoice =
  | { readonly rate: number; readonly source: 'override' | 'ccxt' }
  | { readonly rate: null; readonly source: 'missing'; readonly reason: string };

/** A finite number in [0, MAX_TAKER_FEE_RATE]. */
export function isValidTakerFeeRate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_TAKER_FEE_RATE;
}

/**
 * The taker fee of one market: the override table wins; else the market's own `taker` (ccxt
 * fills it from the venue's fees.trading); else null, so the API's DEFAULT_TAKER_FEE_RATE applies.
 */
export function chooseTakerFee(exchangeId: string, marketTaker: unknown): FeeChoice {
  const override = TAKER_FEE_OVERRIDES[exchangeId];
  if (override !== undefined) return { rate: override, source: 'override' };
  if (isValidTakerFeeRate(marketTaker)) return { rate: marketTaker, source: 'ccxt' };
  const shown = marketTaker === undefined ? 'undefined' : JSON.stringify(marketTaker);
  return {
    rate: null,
    source: 'missing',
    reason: `ccxt taker fee ${shown} is not a rate in [0, ${MAX_TAKER_FEE_RATE}]`,
  };
}
