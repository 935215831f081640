import type { MarketRuleField } from '@app/events';

// A market's order rules from the pinned ccxt's market (docs/venues.md "Order rules"): what a
// market record carries so that every leg the router returns is an order the venue accepts.

/** ccxt's precision modes (ccxt/js/src/base/functions/number.js). */
export const DECIMAL_PLACES = 2;
export const SIGNIFICANT_DIGITS = 3;
export const TICK_SIZE = 4;

/** The rule fields of a market record; each null when unknown. */
export type MarketRuleFields = Record<MarketRuleField, number | null>;

/** The part of a ccxt market the rules come from (ccxt's typings are loose: every field is checked). */
interface RuleSource {
  readonly precision?: { readonly amount?: unknown } | null;
  readonly limits?: {
    readonly amount?: { readonly min?: unknown; readonly max?: unknown } | null;
    readonly cost?: { readonly min?: unknown } | null;
    /** Market-order quantity limits where the venue has its own (binance MARKET_LOT_SIZE). */
    readonly market?: { readonly min?: unknown; readonly max?: unknown } | null;
  } | null;
}

/** A finite number > 0, else null (ccxt writes undefined, and some venues 0, for "no limit"). */
function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The amount step: TICK_SIZE precision is the step itself; DECIMAL_PLACES n is 10^-n (written
 * as the decimal 1e-n, not a product with float dust); SIGNIFICANT_DIGITS has no fixed step.
 */
export function amountStep(precisionMode: unknown, precision: unknown): number | null {
  switch (precisionMode) {
    case TICK_SIZE:
      return positive(precision);
    case DECIMAL_PLACES:
      return typeof precision === 'number' && Number.isInteger(precision) && precision >= 0 && precision <= 20
        ? Number(`1e-${precision}`)
        : null;
    default:
      return null;
  }
}

/** The larger of two minimums, the smaller of two maximums, ignoring unknown ones. */
const larger = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const smaller = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * The order rules of a ccxt market on an exchange with `precisionMode`: the step from
 * `precision.amount`, `limits.amount.min/max` and `limits.cost.min`, tightened by the venue's
 * market-order limits (`limits.market`) where ccxt has them, since every leg is a market order.
 */
export function rulesOfMarket(precisionMode: unknown, market: RuleSource): MarketRuleFields {
  const limits = market.limits ?? {};
  return {
    amountStep: amountStep(precisionMode, market.precision?.amount),
    minAmount: larger(positive(limits.amount?.min), positive(limits.market?.min)),
    minCost: positive(limits.cost?.min),
    maxAmount: smaller(positive(limits.amount?.max), positive(limits.market?.max)),
  };
}

/**
 * The fields to spread into a market record built from `market` on the ccxt `exchange` (its
 * precisionMode): the four rules, or nothing when ccxt knows none, so that such a record stays
 * the base record byte for byte.
 */
export function marketRules(exchange: object, market: object): Partial<MarketRuleFields> {
  const { precisionMode } = exchange as { readonly precisionMode?: unknown };
  const rules = rulesOfMarket(precisionMode, market);
  return Object.values(rules).every((v) => v === null) ? {} : rules;
}
