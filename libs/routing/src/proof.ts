import type { ExactSide, RoutingConfig, Side, Strategy, UnroutableReason } from './types';

// The walk-the-book proof of a quote (docs/explain.md): plain JSON, built from the very solve that
// produced the RouteResult. Every array has a defined order, so equal inputs give equal bytes.

/** Version of the proof's shape; bumped when a field changes meaning or goes away. */
export const PROOF_VERSION = 1;

/** One level a leg consumed, in the order its walk took it. */
export interface LevelProof {
  /** Position of this take in the hop's walk (0 first); a merged walk interleaves venues. */
  step: number;
  /** Index of the level on the walked side of the book, 0 = best. */
  level: number;
  price: number;
  /** Base units the level offered. */
  available: number;
  /** Base units taken. */
  base: number;
  /** Raw quote value of the take: price * base. */
  cost: number;
  /** The leg's base after this take (summed in walk order: the last one is the leg's amount). */
  runningBase: number;
  /** The leg's raw cost after this take (the last one is the leg's cost). */
  runningCost: number;
  /**
   * What ended the take; with venue rules also `max_reached` (the leg's maxAmount) and
   * `whole_step` (the level's rest waits for a whole step, docs/semantics.md section 13).
   */
  stop: 'level_exhausted' | 'amount_met' | 'cap_reached' | 'max_reached' | 'whole_step';
}

/** A market's order rules as its record carried them (docs/semantics.md section 13). */
export interface RulesProof {
  amountStep: number | null;
  minAmount: number | null;
  minCost: number | null;
  maxAmount: number | null;
}

/** One leg: the levels it consumed and the fee and staleness arithmetic on top. */
export interface LegProof {
  exchangeId: string;
  /** Sequence of the book the walk read (null when none arrived). */
  bookSequence: number | null;
  /** now - receivedAt of that book, clamped at 0. */
  bookAgeMs: number | null;
  levels: LevelProof[];
  /** Base units: the last level's runningBase (the leg's `amount`). */
  amount: number;
  /** Raw quote value c: the last level's runningCost. */
  cost: number;
  /** c / amount. */
  averagePrice: number;
  /** Fee fraction applied f: takerFeeRate, or 0 with includeFees=false. */
  fee: number;
  /** c * f, in the quote asset. */
  feeCost: number;
  /** averagePrice * (1+f) on a buy, * (1-f) on a sell. */
  effectivePrice: number;
  /** Spent in the hop's input asset: c * (1+f) on a buy, amount on a sell. */
  amountIn: number;
  /** Received in the hop's output asset: amount on a buy, c * (1-f) on a sell. */
  amountOut: number;
  /** Staleness markdown s of the book (ranking only). */
  staleness: number;
  /** (1+f)(1+s) on a buy, (1-f)(1-s) on a sell. */
  rankMul: number;
  /** averagePrice * rankMul: the price the strategy ranked this leg by. */
  rankingPrice: number;
  /** Funding cap in the hop's input asset from balances; null when unconstrained. */
  cap: number | null;
  /** The cap, not the book or the size, stopped this leg. */
  capLimited: boolean;
  /** The market's order rules; null when it carries none. */
  rules: RulesProof | null;
  /** Whole steps in the leg; null on a market without a step. */
  steps: number | null;
  /** The rule that shaped the leg: rounded down to a whole step, or cut at maxAmount; null when none did. */
  shapedBy: 'step' | 'max' | null;
}

/** A venue listing the hop's market after the exchanges and certified filters. */
export interface VenueProof {
  exchangeId: string;
  fresh: boolean;
  notFreshBecause: 'no_book' | 'out_of_sync' | 'crossed' | 'ahead_of_clock' | 'stale' | null;
  bookSequence: number | null;
  bookReceivedAt: number | null;
  bookAgeMs: number | null;
  takerFeeRate: number;
  fee: number;
  /** stalenessPenaltyBps * sqrt(ageMs / 1000) / 10000. */
  staleness: number;
  rankMul: number;
  /** Best level on the walked side (asks on a buy, bids on a sell); null when empty. */
  bestPrice: number | null;
  cap: number | null;
  /** This venue has a leg in the hop. */
  used: boolean;
  /** The market's order rules; null when it carries none. */
  rules: RulesProof | null;
  /** Its leg was under the market's minimum amount or cost, so the hop was solved without it. */
  droppedBecause: 'min_amount' | 'min_cost' | null;
}

/** One hop of a candidate path as solved. */
export interface HopProof {
  index: number;
  pair: string;
  side: Side;
  inAsset: string;
  outAsset: string;
  /** What the hop was asked: which side was pinned and how much, in that side's asset. */
  asked: { pinned: ExactSide; amount: number; asset: string };
  strategy: Strategy;
  unroutableReason: UnroutableReason | null;
  amountIn: number;
  amountOut: number;
  /** The walk met the asked amount. */
  pinnedMet: boolean;
  /** What the result reports for this hop (docs/semantics.md section 8). */
  fullyFillable: boolean;
  venues: VenueProof[];
  /** In the result's leg order: amount descending, ties by exchangeId. */
  legs: LegProof[];
  /** The legs come from the fill search over venue minimums (docs/semantics.md section 13). */
  fillSearch: boolean;
}

/** score = amountOut * factor^(hops-1), by repeated multiplication. */
export interface ScoreProof {
  amountOut: number;
  hops: number;
  hopPenaltyBps: number;
  /** 1 - hopPenaltyBps / 10000. */
  factor: number;
  /** amountOut, then each multiplication by factor; the last one is the score. Empty when unroutable. */
  steps: number[];
  score: number;
}

/** One candidate path, in candidate order (direct first, then bridges in request order). */
export interface CandidateProof {
  index: number;
  pairs: string[];
  bridge: string | null;
  /** False for the bridges of an exact-out request: only the direct market is solved. */
  solved: boolean;
  unroutableReason: UnroutableReason | null;
  failedAtHop: number | null;
  amountIn: number;
  amountOut: number;
  fullyFillable: boolean;
  /** Null for exact-out, where nothing is scored. */
  score: ScoreProof | null;
  eligible: boolean;
  ineligibleBecause: 'not_solved' | 'unroutable' | 'no_output' | 'not_fully_fillable' | null;
  /** How it fared against the winner. */
  verdict:
    'chosen' | 'lower_score' | 'same_score_more_hops' | 'same_score_later' | 'ineligible' | 'none_chosen';
  /** Set when hop 2 could not absorb what hop 1 first delivered (docs/semantics.md section 8). */
  trim: { hop1Filled: boolean; delivered: number; absorbed: number; rounds: number } | null;
  hops: HopProof[];
}

/** Why the winner won. */
export interface DecisionProof {
  winner: number | null;
  rule:
    | 'no_market'
    | 'exact_out_direct_only'
    | 'none_eligible'
    | 'only_eligible'
    | 'higher_score'
    | 'fewer_hops'
    | 'earlier_candidate';
  /** The best candidate after the winner under the same order; null when no other is eligible. */
  runnerUp: number | null;
  /** (winner score / runner-up score - 1) * 10000; null without a runner-up. */
  marginBps: number | null;
  /** The candidate whose hops the result shows (the winner, or a bridge failing mid-route). */
  hopsFrom: number | null;
}

/** The proof of one solve. */
export interface SolveProof {
  proofVersion: typeof PROOF_VERSION;
  solverVersion: string;
  requestId: string;
  calculatedAt: number;
  exactSide: ExactSide;
  requestedAmount: number;
  pinnedAsset: string;
  config: RoutingConfig;
  hopPenaltyBps: number;
  requireFullFill: boolean;
  candidates: CandidateProof[];
  decision: DecisionProof;
}
