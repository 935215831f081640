import type { MarketRules } from '@app/books';

// A market's order rules as the walks use them (docs/semantics.md section 13): the step as an exact
// decimal m x 10^-d, so that an amount of k steps is the integer k*m over 10^d and prints exactly.

/** A leg stays under this many units of 10^-d: 15 significant digits, which JSON prints exactly. */
export const MAX_UNITS = 999_999_999_999_999;

/** Relative slack when counting the whole steps a float depth reaches (float dust of level sums). */
export const STEP_SLACK = 1e-14;

/** A step finer than 10^-22 has no exact power of ten to divide by: it counts as no step. */
const MAX_SCALE_DIGITS = 22;

/** One market's order rules as whole steps of an exact decimal, ready for the walks. */
export interface OrderSteps {
  /** The record's rules, as shown by the proof. */
  readonly market: MarketRules;
  /** The step's integer mantissa m (step = m / scale); 0 when the market has no usable step. */
  readonly stepUnits: number;
  /** 10^d, d being the step's decimal places. */
  readonly scale: number;
  /** d. */
  readonly scaleDigits: number;
  /** The step as a double (m / scale); 0 without a step. */
  readonly step: number;
  /** Largest leg in base units: maxAmount rounded down to a whole step (Infinity when unbounded). */
  readonly maxBase: number;
  /** maxBase in steps (Infinity without a step). */
  readonly maxSteps: number;
  readonly minAmount: number;
  readonly minCost: number;
}

/**
 * Each market's walk view is made once and kept with its rules: in the cache's own slot for them
 * (an in-object field: a solve asks for every venue of every hop), else (rules built elsewhere)
 * under a private, non-enumerable symbol that JSON and spreads do not see; frozen ones in a
 * WeakMap.
 */
const KEPT = Symbol('orderSteps');
const frozen = new WeakMap<MarketRules, OrderSteps>();

/** The walk's view of a market's rules; null for a market without any. Made once per record. */
export function orderSteps(market: MarketRules | null | undefined): OrderSteps | null {
  if (market === null || market === undefined) return null;
  if (market.derived !== undefined) return market.derived(build);
  const kept = (market as { [KEPT]?: OrderSteps })[KEPT];
  if (kept !== undefined) return kept;
  let rules = frozen.get(market);
  if (rules === undefined) {
    rules = build(market);
    if (Object.isExtensible(market)) Object.defineProperty(market, KEPT, { value: rules });
    else frozen.set(market, rules);
  }
  return rules;
}

function build(market: MarketRules): OrderSteps {
  const dec = market.amountStep === null ? null : decimalOf(market.amountStep);
  // A step too coarse to count in whole units (over 10^15) allows no order at all: one unit, none
  // of it. One finer than 10^-22 is no step (a venue cannot tell such amounts apart anyway).
  const tooCoarse = dec === null && market.amountStep !== null && market.amountStep >= 1;
  const stepUnits = tooCoarse ? 1 : (dec?.m ?? 0);
  const scaleDigits = dec?.d ?? 0;
  const scale = 10 ** scaleDigits;
  const step = stepUnits / scale;
  let maxSteps = Infinity;
  let maxBase = market.maxAmount ?? Infinity;
  if (tooCoarse) {
    maxSteps = 0;
    maxBase = 0;
  } else if (stepUnits > 0) {
    maxSteps = Math.floor(MAX_UNITS / stepUnits);
    if (market.maxAmount !== null) maxSteps = Math.min(maxSteps, stepsIn(market.maxAmount, stepUnits, scale));
    maxBase = (maxSteps * stepUnits) / scale;
  }
  return {
    market,
    stepUnits,
    scale,
    scaleDigits,
    step,
    maxBase,
    maxSteps,
    minAmount: market.minAmount ?? 0,
    minCost: market.minCost ?? 0,
  };
}

/**
 * `x` as m x 10^-d from its shortest decimal text after rounding to 15 significant digits; null
 * when it has no usable decimal form (too fine, or too coarse to count in whole units).
 */
export function decimalOf(x: number): { m: number; d: number } | null {
  const text = String(Number(x.toPrecision(15)));
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exp = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let d = (dot < 0 ? 0 : mantissa.length - dot - 1) - exp;
  let m = Number(digits);
  if (d < 0) {
    m *= 10 ** -d;
    d = 0;
  }
  if (d > MAX_SCALE_DIGITS || !(m > 0) || m > MAX_UNITS) return null;
  return { m, d };
}

/** Whole steps of `stepUnits / scale` in `base` (a float depth), rounded down; 0 for base <= 0. */
export function stepsIn(base: number, stepUnits: number, scale: number): number {
  if (!(base > 0)) return 0;
  const x = (base * scale) / stepUnits;
  return Math.floor(x + x * STEP_SLACK);
}

/** One double's bits, for pieceTo to step a double down to the next one below. */
const BITS = new Float64Array(1);
const WORDS = new Uint32Array(BITS.buffer);
const LOW = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * The piece that brings a leg of `base` units to `limit` (a maximum) without passing it: `limit -
 * base` rounds, and so does its sum with `base`, which can then pass `limit` by one unit in the
 * last place (0.3 + (0.9 - 0.3) is 0.9000000000000001), an order the venue would refuse. The
 * piece is then stepped down, a double at a time, until the sum is at most `limit`.
 */
export function pieceTo(limit: number, base: number): number {
  let y = limit - base;
  while (y > 0 && base + y > limit) {
    BITS[0] = y;
    if (WORDS[LOW] === 0) WORDS[1 - LOW]!--;
    WORDS[LOW]!--;
    y = BITS[0]!;
  }
  return y;
}

/** Smallest whole number of steps reaching at least `base`. */
export function stepsAtLeast(base: number, stepUnits: number, scale: number): number {
  if (!(base > 0)) return 0;
  const x = (base * scale) / stepUnits;
  return Math.ceil(x - x * STEP_SLACK);
}

/** The exact amount of `steps` steps: the integer steps*m over 10^d. */
export function baseOfSteps(rules: OrderSteps, steps: number): number {
  return (steps * rules.stepUnits) / rules.scale;
}

/** The part of a leg the market's rules need: its amount, steps and raw cost. */
export interface SizedLeg {
  readonly base: number;
  readonly cost: number;
}

/** Whether a leg can be sent as one order: at or above the minimum amount and cost (steps and maximum hold by construction). */
export function executable(rules: OrderSteps | null, leg: SizedLeg): boolean {
  return rules === null || (leg.base >= rules.minAmount && leg.cost >= rules.minCost);
}

/** Which minimum an unexecutable leg misses, amount first. */
export function missedMinimum(rules: OrderSteps, leg: SizedLeg): 'min_amount' | 'min_cost' {
  return leg.base < rules.minAmount ? 'min_amount' : 'min_cost';
}

/** 10^i for every scale a step can have (0..MAX_SCALE_DIGITS), each as `10 ** i` computes it. */
const POW10: readonly number[] = Array.from({ length: MAX_SCALE_DIGITS + 1 }, (_, i) => 10 ** i);

/** A leg as sumBase reads it: its amount, its venue's rules and (a leg of a rule-aware walk) its whole steps. */
interface BaseLeg {
  readonly base: number;
  readonly steps?: number;
  readonly venue: { readonly rules: OrderSteps | null };
}

/**
 * Sum of the legs' base amounts, exact when every leg's market has a step: the integers at the
 * finest scale, divided once (a leg without a step count counts none). Otherwise (a market without
 * a step, or a sum past 2^53) the float sum in the given order. A hop sums its legs once per
 * solve, so this reads them in place rather than through a list of parts.
 */
export function sumBase(legs: readonly BaseLeg[]): number {
  let digits = 0;
  for (const leg of legs) {
    const r = leg.venue.rules;
    if (r === null || r.stepUnits === 0) return floatSum(legs);
    digits = Math.max(digits, r.scaleDigits);
  }
  let units = 0;
  for (const leg of legs) {
    const r = leg.venue.rules!;
    units += (leg.steps ?? 0) * r.stepUnits * POW10[digits - r.scaleDigits]!;
  }
  if (units <= Number.MAX_SAFE_INTEGER) return units / POW10[digits]!;
  return floatSum(legs);
}

function floatSum(legs: readonly BaseLeg[]): number {
  let t = 0;
  for (const leg of legs) t += leg.base;
  return t;
}

/** Whether every leg's market has a step: their sum (sumBase) is then exact unless past 2^53. */
export function allStepped(legs: readonly BaseLeg[]): boolean {
  for (const leg of legs) {
    const r = leg.venue.rules;
    if (r === null || r.stepUnits === 0) return false;
  }
  return true;
}
