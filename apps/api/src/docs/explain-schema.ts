import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  EXACT_SIDES,
  STRATEGIES,
  UNROUTABLE_REASONS,
  type CandidateProof,
  type ConstraintCosts,
  type Counterfactual,
  type DecisionProof,
  type HopProof,
  type LegProof,
  type LevelProof,
  type PathCost,
  type RouteRequest,
  type RoutingConfig,
  type ScoreProof,
  type SolveProof,
  type StrategyCost,
  type VenueProof,
} from '@app/routing';
import { nullable, RouteResultSchema, stringEnum, type Assert, type SameShape } from './result-schema';

/*
 * The schemas of GET /route/explain (an extension beyond the spec): the walk-the-book proof and the
 * constraint costs of libs/routing, field by field as docs/explain.md describes them. The checks
 * at the bottom fail the build when these and the solver's types drift apart.
 */

const closed = (id: string, description: string) => ({ $id: id, description, additionalProperties: false });
const num = (description: string) => Type.Number({ description });
const count = (description: string) => Type.Integer({ minimum: 0, description });
const text = (description: string) => Type.String({ description });
const flag = (description: string) => Type.Boolean({ description });
const orNull = <T extends TSchema>(s: T) => nullable(s, 'Null when it does not apply (docs/explain.md).');
const reason = stringEnum(UNROUTABLE_REASONS, 'Why nothing routed.');

export const LevelProofSchema = Type.Object(
  {
    step: count("Position of this take in the hop's walk."),
    level: count('Index of the level on the walked side, 0 = best.'),
    price: num('Level price.'),
    available: num('Base units the level offered.'),
    base: num('Base units taken.'),
    cost: num('price * base.'),
    runningBase: num("The leg's base after this take."),
    runningCost: num("The leg's raw cost after this take."),
    stop: stringEnum(
      ['level_exhausted', 'amount_met', 'cap_reached', 'max_reached', 'whole_step'] as const,
      "What ended the take (max_reached and whole_step come from the venue's order rules).",
    ),
  },
  closed('LevelProof', 'One level a leg consumed.'),
);

const RulesProofSchema = Type.Object(
  {
    amountStep: orNull(num('Base units: an order is a whole multiple of it.')),
    minAmount: orNull(num('Base units: the smallest order.')),
    minCost: orNull(num('Quote units: the smallest amount x price.')),
    maxAmount: orNull(num('Base units: the largest single order.')),
  },
  { additionalProperties: false, description: "The market's order rules (docs/semantics.md section 13)." },
);
const rulesOrNull = nullable(RulesProofSchema, 'Null when the market carries no order rule.');

export const LegProofSchema = Type.Object(
  {
    exchangeId: text('Venue id.'),
    bookSequence: orNull(num('Sequence of the book the walk read.')),
    bookAgeMs: orNull(num('now - receivedAt of that book.')),
    levels: Type.Array(LevelProofSchema),
    amount: num('Base units (the last runningBase).'),
    cost: num('Raw quote value (the last runningCost).'),
    averagePrice: num('cost / amount.'),
    fee: num('Fee fraction applied.'),
    feeCost: num('cost * fee.'),
    effectivePrice: num('averagePrice with the fee.'),
    amountIn: num("Spent in the hop's input asset."),
    amountOut: num("Received in the hop's output asset."),
    staleness: num('Staleness markdown of the book (ranking only).'),
    rankMul: num('(1+f)(1+s) on a buy, (1-f)(1-s) on a sell.'),
    rankingPrice: num('averagePrice * rankMul.'),
    cap: orNull(num('Funding cap from balances.')),
    capLimited: flag('The cap stopped this leg.'),
    rules: rulesOrNull,
    steps: orNull(count('Whole steps in the leg (null without a step).')),
    shapedBy: orNull(
      stringEnum(['step', 'max'] as const, 'Rounded down to a whole step, or cut at maxAmount.'),
    ),
  },
  closed('LegProof', 'One leg: its levels and the fee and staleness arithmetic.'),
);

export const VenueProofSchema = Type.Object(
  {
    exchangeId: text('Venue id.'),
    fresh: flag('The book may route.'),
    notFreshBecause: orNull(
      stringEnum(
        ['no_book', 'out_of_sync', 'crossed', 'ahead_of_clock', 'stale'] as const,
        'Why the book may not route (ahead_of_clock: its receivedAt is more than 1000 ms ahead of the service clock).',
      ),
    ),
    bookSequence: orNull(num('Book sequence.')),
    bookReceivedAt: orNull(num('Epoch ms the book was received.')),
    bookAgeMs: orNull(num('now - receivedAt, clamped at 0.')),
    takerFeeRate: num('As published, else the default.'),
    fee: num('Fee fraction applied (0 with includeFees=false).'),
    staleness: num('stalenessPenaltyBps * sqrt(age/1000) / 10000.'),
    rankMul: num('Ranking multiplier.'),
    bestPrice: orNull(num('Best level on the walked side.')),
    cap: orNull(num('Funding cap in the hop input asset.')),
    used: flag('The venue has a leg.'),
    rules: rulesOrNull,
    droppedBecause: orNull(
      stringEnum(
        ['min_amount', 'min_cost'] as const,
        "Its leg was under the market's minimum amount or cost, so the hop was solved without it.",
      ),
    ),
  },
  closed('VenueProof', 'A venue listing the hop market after the filters.'),
);

export const HopProofSchema = Type.Object(
  {
    index: count('Hop index.'),
    pair: text('Market.'),
    side: stringEnum(['buy', 'sell'] as const, 'buy walks asks, sell walks bids.'),
    inAsset: text('What the hop spends.'),
    outAsset: text('What the hop receives.'),
    asked: Type.Object(
      {
        pinned: stringEnum(EXACT_SIDES, 'Pinned side.'),
        amount: num('Amount asked.'),
        asset: text('Its asset.'),
      },
      { additionalProperties: false, description: 'What the hop was asked.' },
    ),
    strategy: stringEnum(STRATEGIES, 'Strategy the hop was solved with.'),
    unroutableReason: orNull(reason),
    amountIn: num('As the result shows it.'),
    amountOut: num('As the result shows it.'),
    pinnedMet: flag('The walk met the asked amount.'),
    fullyFillable: flag('As the result reports.'),
    venues: Type.Array(VenueProofSchema),
    legs: Type.Array(LegProofSchema),
    fillSearch: flag('The legs come from the fill search over venue minimums.'),
  },
  closed('HopProof', 'One hop of a candidate path as solved.'),
);

export const ScoreProofSchema = Type.Object(
  {
    amountOut: num('Path output.'),
    hops: count('Hops.'),
    hopPenaltyBps: num('Hop penalty.'),
    factor: num('1 - hopPenaltyBps / 10000.'),
    steps: Type.Array(num('amountOut, then each multiplication by factor.')),
    score: num('The last step (0 when the path failed).'),
  },
  closed('ScoreProof', 'The score arithmetic.'),
);

export const CandidateProofSchema = Type.Object(
  {
    index: count('Position in candidate order.'),
    pairs: Type.Array(text('Market.')),
    bridge: orNull(text('Bridge asset.')),
    solved: flag('False for the bridges of an exact-out request.'),
    unroutableReason: orNull(reason),
    failedAtHop: orNull(count('Failing hop.')),
    amountIn: num('Path input.'),
    amountOut: num('Path output.'),
    fullyFillable: flag('As in pathsConsidered.'),
    score: orNull(ScoreProofSchema),
    eligible: flag('May it win.'),
    ineligibleBecause: orNull(
      stringEnum(['not_solved', 'unroutable', 'no_output', 'not_fully_fillable'] as const, 'Why not.'),
    ),
    verdict: stringEnum(
      [
        'chosen',
        'lower_score',
        'same_score_more_hops',
        'same_score_later',
        'ineligible',
        'none_chosen',
      ] as const,
      'How it fared against the winner.',
    ),
    trim: orNull(
      Type.Object(
        {
          hop1Filled: flag('Hop 1 filled.'),
          delivered: num('Delivered.'),
          absorbed: num('Absorbed.'),
          rounds: count('Rounds.'),
        },
        { additionalProperties: false, description: 'Bridge trimming.' },
      ),
    ),
    hops: Type.Array(HopProofSchema),
  },
  closed('CandidateProof', 'One candidate path.'),
);

export const DecisionProofSchema = Type.Object(
  {
    winner: orNull(count('Winning candidate.')),
    rule: stringEnum(
      [
        'no_market',
        'exact_out_direct_only',
        'none_eligible',
        'only_eligible',
        'higher_score',
        'fewer_hops',
        'earlier_candidate',
      ] as const,
      'The rule that decided.',
    ),
    runnerUp: orNull(count('Runner-up candidate.')),
    marginBps: orNull(num('(winner score / runner-up score - 1) * 10000.')),
    hopsFrom: orNull(count('The candidate whose hops the result shows.')),
  },
  closed('DecisionProof', 'Why the winner won.'),
);

const RoutingConfigSchema = Type.Object(
  {
    staleBookMs: num('Server setting.'),
    stalenessPenaltyBps: num('Server setting.'),
    defaultTakerFeeRate: num('Server setting.'),
  },
  { additionalProperties: false, description: 'The routing configuration used.' },
);

export const SolveProofSchema = Type.Object(
  {
    proofVersion: Type.Literal(1, { description: 'Version of this shape.' }),
    solverVersion: text('Solver version.'),
    requestId: text('Request id.'),
    calculatedAt: num('The clock of the solve.'),
    exactSide: stringEnum(EXACT_SIDES, 'Pinned side.'),
    requestedAmount: num('Pinned amount.'),
    pinnedAsset: text('Asset of the pinned amount.'),
    config: RoutingConfigSchema,
    hopPenaltyBps: num('From the request.'),
    requireFullFill: flag('From the request.'),
    candidates: Type.Array(CandidateProofSchema),
    decision: DecisionProofSchema,
  },
  closed(
    'SolveProof',
    'The walk-the-book proof of the solve that produced the result (docs/explain.md section 1).',
  ),
);

const outcome = {
  value: num('What the caller did not pin: amountOut when exact-in, amountIn when exact-out.'),
  fillRatio: num('Pinned side achieved share.'),
  fullyFillable: flag('As in a RouteResult.'),
  unroutableReason: orNull(reason),
  effectiveRate: orNull(num('amountOut / amountIn.')),
};
const costBps = orNull(
  num('(1 - routeRate / thisRate) * 10000: positive when this alternative gives a better rate.'),
);
const requestChange = Type.Unsafe<Partial<RouteRequest>>({
  type: 'object',
  description: 'Request fields changed.',
});
const configChange = Type.Unsafe<Partial<RoutingConfig>>({
  type: 'object',
  description: 'Config fields changed.',
});

export const CounterfactualSchema = Type.Object(
  { ...outcome, costBps, name: text('Row name.'), requestChange, configChange, result: RouteResultSchema },
  closed('Counterfactual', 'The same snapshot solved with the named change.'),
);

export const StrategyCostSchema = Type.Object(
  {
    ...outcome,
    costBps,
    name: text('Strategy.'),
    requestChange,
    configChange,
    current: flag("The request's own strategy."),
    result: Type.Union([RouteResultSchema, Type.Null()], { description: 'Null for the current strategy.' }),
  },
  closed('StrategyCost', 'What a strategy would give.'),
);

export const PathCostSchema = Type.Object(
  {
    ...outcome,
    costBps,
    pairs: Type.Array(text('Market.')),
    bridge: orNull(text('Bridge asset.')),
    chosen: flag('The route took this path.'),
    amountIn: num('Path input.'),
    amountOut: num('Path output.'),
    score: orNull(num('Score compared (null for exact-out).')),
  },
  closed('PathCost', 'One candidate path of the route.'),
);

export const ConstraintCostsSchema = Type.Object(
  {
    requestId: text('Request id.'),
    valueAsset: text('Asset of every value.'),
    route: Type.Object(outcome, { additionalProperties: false, description: "The route's own figures." }),
    strategies: Type.Array(StrategyCostSchema),
    paths: Type.Array(PathCostSchema),
    constraints: Type.Array(CounterfactualSchema),
  },
  closed(
    'ConstraintCosts',
    'What each alternative would give on the same snapshot (docs/explain.md section 2).',
  ),
);

export const ExplainedRouteSchema = Type.Object(
  { result: RouteResultSchema, proof: SolveProofSchema, constraintCosts: ConstraintCostsSchema },
  closed(
    'ExplainedRoute',
    'GET /route/explain: the RouteResult, its proof and its constraint costs, from one snapshot.',
  ),
);

/** Every schema of this file, as the OpenAPI document lists them. */
export const EXPLAIN_SCHEMAS = [
  LevelProofSchema,
  LegProofSchema,
  VenueProofSchema,
  HopProofSchema,
  ScoreProofSchema,
  CandidateProofSchema,
  DecisionProofSchema,
  SolveProofSchema,
  CounterfactualSchema,
  StrategyCostSchema,
  PathCostSchema,
  ConstraintCostsSchema,
  ExplainedRouteSchema,
];

/** Compile-time proof that the schemas are the solver's proof and cost types. */
export type ExplainSchemaMatches = [
  Assert<SameShape<Static<typeof LevelProofSchema>, LevelProof>>,
  Assert<SameShape<Static<typeof LegProofSchema>, LegProof>>,
  Assert<SameShape<Static<typeof VenueProofSchema>, VenueProof>>,
  Assert<SameShape<Static<typeof HopProofSchema>, HopProof>>,
  Assert<SameShape<Static<typeof ScoreProofSchema>, ScoreProof>>,
  Assert<SameShape<Static<typeof CandidateProofSchema>, CandidateProof>>,
  Assert<SameShape<Static<typeof DecisionProofSchema>, DecisionProof>>,
  Assert<SameShape<Static<typeof SolveProofSchema>, SolveProof>>,
  Assert<SameShape<Static<typeof CounterfactualSchema>, Counterfactual>>,
  Assert<SameShape<Static<typeof StrategyCostSchema>, StrategyCost>>,
  Assert<SameShape<Static<typeof PathCostSchema>, PathCost>>,
  Assert<SameShape<Static<typeof ConstraintCostsSchema>, ConstraintCosts>>,
];
