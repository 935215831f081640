import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  EXACT_SIDES,
  STRATEGIES,
  UNROUTABLE_REASONS,
  type Hop,
  type Leg,
  type PathConsidered,
  type Quote,
  type RouteResult,
} from '@app/routing';

/*
 * The JSON Schemas of a RouteResult (spec 2.1-2.5), written once as data (TypeBox builds plain
 * JSON Schema objects and derives their static types). The OpenAPI and AsyncAPI documents, the
 * generated client and the response validation in the tests all read these; the compile-time
 * checks at the bottom fail the build when a schema and the solver's types stop describing the
 * same object, so neither can drift from the other. Every object refuses undeclared fields.
 */

/** A string enum whose static type is exactly the union of its values. */
export function stringEnum<const T extends readonly string[]>(values: T, description: string) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
}

/** `schema` or null. */
export function nullable<T extends TSchema>(schema: T, description: string) {
  return Type.Union([schema, Type.Null()], { description });
}

const closed = (id: string, description: string) => ({ $id: id, description, additionalProperties: false });
const num = (description: string) => Type.Number({ description });
const nonNegative = (description: string) => Type.Number({ minimum: 0, description });
const text = (description: string) => Type.String({ description });
const flag = (description: string) => Type.Boolean({ description });
const side = stringEnum(
  ['buy', 'sell'] as const,
  'buy: the hop spends the quote asset; sell: it spends the base asset.',
);

/** One venue's share of a hop. */
export const LegSchema = Type.Object(
  {
    exchangeId: text('Venue id.'),
    amount: nonNegative('Base units this venue fills.'),
    averagePrice: nonNegative('Raw cost per base unit over the levels taken, before fees (quote per base).'),
    takerFeeRate: nonNegative("The venue's taker fee rate for this market."),
    feeCost: nonNegative('Fee paid on this leg, in the quote currency.'),
    effectivePrice: nonNegative('averagePrice with the fee: times (1+fee) on a buy, (1-fee) on a sell.'),
    balanceLimited: Type.Optional(
      flag(
        "Present only when balances were supplied: true when the venue's funds, not the book, stopped it.",
      ),
    ),
  },
  closed('Leg', 'One venue filling part of a hop. Legs are listed by amount descending, ties by exchangeId.'),
);

/** What one venue would do for the whole hop (includeQuotes). */
export const QuoteSchema = Type.Object(
  {
    exchangeId: text('Venue id.'),
    side,
    requestedAmount: nonNegative("The hop's pinned amount."),
    filledAmount: nonNegative('How much of it this venue alone could fill (0 when its book is missing).'),
    averagePrice: nullable(nonNegative('Raw price per base unit.'), 'Null when nothing filled.'),
    effectivePriceWithFee: nullable(
      nonNegative('Ranking price: with the fee and the staleness markdown.'),
      'Null when nothing filled.',
    ),
    takerFeeRate: nonNegative("The venue's taker fee rate."),
    fullyFillable: flag('True when this venue alone fills the whole hop.'),
    bookAgeMs: nullable(
      nonNegative('Age of the book at the clock, in ms.'),
      'Null for a venue that lists the market but whose book never arrived.',
    ),
  },
  closed('Quote', "One venue's quote for the whole hop, shown when includeQuotes is on."),
);

/** One conversion step over one market. */
export const HopSchema = Type.Object(
  {
    pair: text('Unified symbol of the market, BASE/QUOTE.'),
    side,
    base: text('Base asset of the market.'),
    quote: text('Quote asset of the market.'),
    amountIn: nonNegative('What the hop spends (quote on a buy, base on a sell).'),
    amountOut: nonNegative('What the hop delivers.'),
    legs: Type.Array(LegSchema, { description: 'Venues used, largest first.' }),
    feeCost: nonNegative('Fees of all legs, in the quote currency.'),
    feeCurrency: text('Always the quote asset of the market.'),
    fullyFillable: flag('True when the legs fill the pinned amount of this hop.'),
    referencePrice: nullable(
      nonNegative('Best top-of-book ranking price over the fresh permitted venues.'),
      'Null when no fresh permitted venue has a level on that side.',
    ),
    impactBps: nullable(
      num('Executed price against referencePrice, in bps (worse is positive).'),
      'Null without a reference.',
    ),
    venueCount: Type.Integer({ minimum: 0, description: 'Venues listing the market after the filters.' }),
    freshVenueCount: Type.Integer({
      minimum: 0,
      description: 'Of those, venues with a fresh, in-sync book.',
    }),
    quotes: Type.Optional(
      Type.Array(QuoteSchema, {
        description: 'Present only when includeQuotes is on: one per listed venue.',
      }),
    ),
  },
  closed('Hop', 'One hop of the route over one market.'),
);

/** One candidate path and how it scored. */
export const PathConsideredSchema = Type.Object(
  {
    pairs: Type.Array(text('Market symbol.'), { description: 'The markets of the path, in order.' }),
    bridge: nullable(text('Bridge asset.'), 'Null for the direct market.'),
    amountOut: nonNegative('What the path delivers (0 when it failed).'),
    fullyFillable: flag('True when the path fills the whole amount.'),
    score: nonNegative(
      'amountOut * (1 - hopPenaltyBps/10000)^(hops-1); the highest wins (0 when it failed).',
    ),
    chosen: flag('True for the path the result follows.'),
  },
  closed(
    'PathConsidered',
    'A candidate path: the direct market, then one per bridge in the order of bridges.',
  ),
);

/** The body of GET/POST /route and of every stream frame. */
export const RouteResultSchema = Type.Object(
  {
    requestId: text("The request's x-request-id (or a minted UUID); on the stream a fresh UUID per frame."),
    calculatedAt: Type.Integer({
      minimum: 0,
      description: 'The clock of the computation, epoch ms (asOf when given).',
    }),
    calculatedAtIso: Type.String({
      format: 'date-time',
      description: 'calculatedAt as an ISO-8601 UTC time.',
    }),
    from: text('Asset spent (upper-cased).'),
    to: text('Asset received (upper-cased).'),
    amountIn: nonNegative('Amount of `from` spent (0 when unroutable).'),
    amountOut: nonNegative('Amount of `to` received (0 when unroutable).'),
    requestedAmount: nonNegative('The pinned amount as requested (amountIn or amountOut).'),
    exactSide: stringEnum(EXACT_SIDES, 'in: amountIn was pinned; out: amountOut was pinned.'),
    effectiveRate: nullable(nonNegative('amountOut / amountIn.'), 'Null when unroutable.'),
    referenceRate: nullable(
      nonNegative("Product of each hop's top-of-book rate."),
      'Null when unroutable or a hop has no reference price.',
    ),
    impactBps: nullable(num('(1 - effectiveRate / referenceRate) * 10000.'), 'Null without both rates.'),
    hops: Type.Array(HopSchema, {
      description: 'The hops, in order; empty when unroutable (or the hops before a mid-route failure).',
    }),
    fullyFillable: flag('True when every hop filled completely and the pinned amount was met.'),
    fillRatio: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Achieved / requested on the pinned side.',
    }),
    unfilledAmount: nonNegative('Requested minus achieved on the pinned side.'),
    unroutableReason: nullable(
      stringEnum(UNROUTABLE_REASONS, 'Why nothing (or not everything asked) could be routed.'),
      'Null when routed. no_market is answered 404 and exact_out_multi_hop_unsupported 501; every other reason is 200.',
    ),
    unroutableHopIndex: nullable(
      Type.Integer({ minimum: 0, description: 'Index of the hop that failed mid-route.' }),
      'Null unless a bridged route failed after its first hop.',
    ),
    warnings: Type.Array(text('Warning, prefixed by its kind (multi_hop:, partial_fill:).'), {
      description: 'Human-readable warnings.',
    }),
    savingVsBestSingleBps: nullable(
      num('Gain of this route over the best single venue, in bps (0 for best_single).'),
      'Null on bridged routes, unroutable results and when includeQuotes is off.',
    ),
    pathsConsidered: Type.Array(PathConsideredSchema, {
      description: 'Every existing candidate path in candidate order; empty when only one existed.',
    }),
    strategy: stringEnum(STRATEGIES, 'The strategy used.'),
    includeFees: flag('Echo of includeFees.'),
    exchangesFilter: nullable(
      Type.Array(text('Venue id.')),
      'The venue allowlist, sorted and deduplicated; null when unrestricted.',
    ),
    certifiedOnly: flag('Echo of certified.'),
    staleBookMs: nonNegative('Server setting: books older than this never route.'),
    stalenessPenaltyBps: nonNegative('Server setting: ranking markdown per square root of a second of age.'),
    hopPenaltyBps: nonNegative('Echo of hopPenaltyBps.'),
    requireFullFill: flag('Echo of requireFullFill.'),
  },
  closed('RouteResult', 'A quoted route (or why there is none), with the request settings it used.'),
);

/** Every schema of this file, by its $id: the components a document lists. */
export const ROUTE_RESULT_SCHEMAS = [
  LegSchema,
  QuoteSchema,
  HopSchema,
  PathConsideredSchema,
  RouteResultSchema,
];

/** True when A and B are assignable to each other and name the same keys. */
export type SameShape<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
/** Compiles only for `true`. */
export type Assert<T extends true> = T;

/** Compile-time proof that each schema's static type is the solver's type (a drift fails tsc). */
export type RouteResultSchemaMatches = [
  Assert<SameShape<Static<typeof LegSchema>, Leg>>,
  Assert<SameShape<Static<typeof QuoteSchema>, Quote>>,
  Assert<SameShape<Static<typeof HopSchema>, Hop>>,
  Assert<SameShape<Static<typeof PathConsideredSchema>, PathConsidered>>,
  Assert<SameShape<Static<typeof RouteResultSchema>, RouteResult>>,
];
