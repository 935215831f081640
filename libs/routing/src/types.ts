/** Bumped whenever a change can alter any result byte (recorded in the quote journal). */
export const SOLVER_VERSION = '1.2.3';

/** Which side of the conversion the caller pinned. */
export const EXACT_SIDES = ['in', 'out'] as const;
export type ExactSide = (typeof EXACT_SIDES)[number];
/** The strategies, in the order the spec lists them (the one list every parser and document uses). */
export const STRATEGIES = ['best_single', 'split_optimal', 'split_capped'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export type Side = 'buy' | 'sell';
export const BALANCE_MODES = ['cap', 'require'] as const;
export type BalanceMode = (typeof BALANCE_MODES)[number];

/** Spec 2.6, in the spec's order. */
export const UNROUTABLE_REASONS = [
  'no_market',
  'exact_out_multi_hop_unsupported',
  'no_venues_matched_filter',
  'all_books_stale',
  'no_liquidity',
  'insufficient_depth',
  'insufficient_balance',
] as const;
export type UnroutableReason = (typeof UNROUTABLE_REASONS)[number];

/**
 * Holdings: `default` applies to every venue without its own entry for that asset;
 * `perVenue[exchangeId][ASSET]` overrides it. Assets are upper-case.
 */
export interface Balances {
  readonly default: Readonly<Record<string, number>>;
  readonly perVenue: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** A validated, normalised route request (the API parses; the solver trusts it). */
export interface RouteRequest {
  readonly requestId: string;
  readonly from: string;
  readonly to: string;
  readonly exactSide: ExactSide;
  readonly amount: number;
  readonly strategy: Strategy;
  readonly maxVenues: number;
  /** Bridge assets in the caller's order; empty disables bridging. */
  readonly bridges: readonly string[];
  readonly hopPenaltyBps: number;
  /** Venue allowlist; null = unrestricted; empty = no venues. */
  readonly exchanges: readonly string[] | null;
  readonly certifiedOnly: boolean;
  readonly includeFees: boolean;
  readonly includeQuotes: boolean;
  /** null = unconstrained. */
  readonly balances: Balances | null;
  readonly balanceMode: BalanceMode;
  readonly minLegNotional: number;
  readonly requireFullFill: boolean;
}

/** Server-side routing configuration; echoed where the spec says so. */
export interface RoutingConfig {
  readonly staleBookMs: number;
  readonly stalenessPenaltyBps: number;
  readonly defaultTakerFeeRate: number;
  /**
   * Route as if no market record carried order rules (docs/semantics.md section 13). Only the
   * `venueRules` row of the constraint costs sets it; absent everywhere else.
   */
  readonly ignoreVenueRules?: true;
}

/**
 * How far a book's receivedAt may be ahead of the solver's clock and still count as fresh (ms).
 * Beyond it the ingestor's clock runs ahead of the reader's (or the record lies): such a book's
 * age cannot be known, so it is not fresh (docs/semantics.md "Freshness").
 */
export const CLOCK_SKEW_TOLERANCE_MS = 1000;

export interface Leg {
  exchangeId: string;
  amount: number;
  averagePrice: number;
  takerFeeRate: number;
  feeCost: number;
  effectivePrice: number;
  /** Present (true or false) only when balances were supplied. */
  balanceLimited?: boolean;
}

export interface Quote {
  exchangeId: string;
  side: Side;
  requestedAmount: number;
  filledAmount: number;
  averagePrice: number | null;
  effectivePriceWithFee: number | null;
  takerFeeRate: number;
  fullyFillable: boolean;
  /** Null only for a listed venue whose book has never arrived (docs/semantics.md). */
  bookAgeMs: number | null;
}

export interface Hop {
  pair: string;
  side: Side;
  base: string;
  quote: string;
  amountIn: number;
  amountOut: number;
  legs: Leg[];
  feeCost: number;
  feeCurrency: string;
  fullyFillable: boolean;
  referencePrice: number | null;
  impactBps: number | null;
  venueCount: number;
  freshVenueCount: number;
  quotes?: Quote[];
}

export interface PathConsidered {
  pairs: string[];
  bridge: string | null;
  amountOut: number;
  fullyFillable: boolean;
  score: number;
  chosen: boolean;
}

/** The response body of GET/POST /route and of every stream frame (spec 2.1), field order fixed. */
export interface RouteResult {
  requestId: string;
  calculatedAt: number;
  calculatedAtIso: string;
  from: string;
  to: string;
  amountIn: number;
  amountOut: number;
  requestedAmount: number;
  exactSide: ExactSide;
  effectiveRate: number | null;
  referenceRate: number | null;
  impactBps: number | null;
  hops: Hop[];
  fullyFillable: boolean;
  fillRatio: number;
  unfilledAmount: number;
  unroutableReason: UnroutableReason | null;
  unroutableHopIndex: number | null;
  warnings: string[];
  savingVsBestSingleBps: number | null;
  pathsConsidered: PathConsidered[];
  strategy: Strategy;
  includeFees: boolean;
  exchangesFilter: string[] | null;
  certifiedOnly: boolean;
  staleBookMs: number;
  stalenessPenaltyBps: number;
  hopPenaltyBps: number;
  requireFullFill: boolean;
}

/** Input of `solve`: everything it may look at. */
export interface SolveInput {
  readonly request: RouteRequest;
  readonly books: import('@app/books').MarketsView;
  /** The clock: epoch ms of the computation. */
  readonly now: number;
  readonly config: RoutingConfig;
}
