import type { MarketsView } from '@app/books';
import type { HopCtx, VenueCtx } from './hop-context';
import { leg, type HopOutcome } from './hop';
import type { HopProof, LegProof, LevelProof, RulesProof, VenueProof } from './proof';
import { byLegOrder } from './fill-value';
import type { Strategy } from './types';
import type { Fill } from './walk';
import { isRuledFill } from './ruled-leg';
import type { LevelTake } from './walk-tape';

// A hop of the proof: the venues the hop could use, and for each leg the levels its walk took
// (recorded by the walk itself) with the fee and staleness arithmetic the result shows.

const STOPS = ['level_exhausted', 'amount_met', 'cap_reached', 'max_reached', 'whole_step'] as const;

/** The proof of one solved hop; `fullyFillable` is what the result reports for it. */
export function hopProof(
  o: HopOutcome,
  index: number,
  fullyFillable: boolean,
  strategy: Strategy,
  books: MarketsView,
  takes: ReadonlyMap<Fill, readonly LevelTake[]>,
): HopProof {
  const { ctx, spec } = o;
  const fills = [...o.walk.fills].sort(byLegOrder);
  const steps = stepsOf(fills, takes);
  const used = new Set(fills.map((f) => f.venue.exchangeId));
  return {
    index,
    pair: ctx.symbol,
    side: ctx.side,
    inAsset: ctx.inAsset,
    outAsset: ctx.outAsset,
    asked: {
      pinned: spec.pinned,
      amount: spec.amount,
      asset: spec.pinned === 'in' ? ctx.inAsset : ctx.outAsset,
    },
    strategy,
    unroutableReason: o.reason,
    amountIn: o.amountIn,
    amountOut: o.amountOut,
    pinnedMet: o.full,
    fullyFillable,
    venues: ctx.venues.map((v) => venueProof(v, ctx, books, o, used.has(v.exchangeId))),
    legs: fills.map((f) => legProof(f, ctx, books, o, takes.get(f) ?? [], steps)),
    fillSearch: o.walk.searched === true,
  };
}

function rulesProof(venue: VenueCtx): RulesProof | null {
  const r = venue.rules?.market;
  return r === undefined ? null : { ...r };
}

/** Order of every take of the hop's final fills within the hop: a take's rank by recording order. */
function stepsOf(
  fills: readonly Fill[],
  takes: ReadonlyMap<Fill, readonly LevelTake[]>,
): Map<LevelTake, number> {
  const all: LevelTake[] = [];
  for (const f of fills) all.push(...(takes.get(f) ?? []));
  all.sort((a, b) => a.seq - b.seq);
  return new Map(all.map((t, i) => [t, i]));
}

function bookFacts(books: MarketsView, venue: VenueCtx, ctx: HopCtx) {
  const book = books.book(venue.exchangeId, ctx.symbol);
  const arrived = book !== undefined && book.sequence >= 0;
  return { book, sequence: arrived ? book.sequence : null, receivedAt: arrived ? book.receivedAt : null };
}

function capOf(o: HopOutcome, venue: VenueCtx): number | null {
  return o.capOf === null ? null : o.capOf(venue);
}

function legProof(
  fill: Fill,
  ctx: HopCtx,
  books: MarketsView,
  o: HopOutcome,
  takes: readonly LevelTake[],
  steps: ReadonlyMap<LevelTake, number>,
): LegProof {
  const venue = fill.venue;
  // Running totals as the walk computed them (walk-tape.ts).
  const levels = takes.map((t): LevelProof => ({
    step: steps.get(t) ?? -1,
    level: t.level,
    price: t.price,
    available: t.available,
    base: t.base,
    cost: t.base * t.price,
    runningBase: t.runningBase,
    runningCost: t.runningCost,
    stop: STOPS[t.stop],
  }));
  const l = leg(fill, ctx.side, false);
  const buy = ctx.side === 'buy';
  return {
    exchangeId: venue.exchangeId,
    bookSequence: bookFacts(books, venue, ctx).sequence,
    bookAgeMs: venue.ageMs,
    levels,
    amount: l.amount,
    cost: fill.cost,
    averagePrice: l.averagePrice,
    fee: venue.fee,
    feeCost: l.feeCost,
    effectivePrice: l.effectivePrice,
    amountIn: buy ? fill.cost * (1 + venue.fee) : fill.base,
    amountOut: buy ? fill.base : fill.cost * (1 - venue.fee),
    staleness: venue.s,
    rankMul: venue.rankMul,
    rankingPrice: l.averagePrice * venue.rankMul,
    cap: capOf(o, venue),
    capLimited: fill.capLimited,
    rules: rulesProof(venue),
    steps: isRuledFill(fill) && venue.rules !== null && venue.rules.stepUnits > 0 ? fill.steps : null,
    shapedBy: isRuledFill(fill) ? fill.rule : null,
  };
}

function venueProof(
  venue: VenueCtx,
  ctx: HopCtx,
  books: MarketsView,
  o: HopOutcome,
  used: boolean,
): VenueProof {
  const { book, sequence, receivedAt } = bookFacts(books, venue, ctx);
  const side = venue.levels;
  return {
    exchangeId: venue.exchangeId,
    fresh: venue.fresh,
    notFreshBecause: venue.fresh ? null : whyNotFresh(book, venue),
    bookSequence: sequence,
    bookReceivedAt: receivedAt,
    bookAgeMs: venue.ageMs,
    takerFeeRate: venue.takerFeeRate,
    fee: venue.fee,
    staleness: venue.s,
    rankMul: venue.rankMul,
    bestPrice: side !== null && side.count > 0 ? side.price(0) : null,
    cap: capOf(o, venue),
    used,
    rules: rulesProof(venue),
    droppedBecause: o.walk.dropped?.get(venue) ?? null,
  };
}

/** The first freshness rule a book breaks (docs/semantics.md section 3), for the reader. */
function whyNotFresh(
  book: ReturnType<MarketsView['book']>,
  venue: VenueCtx,
): NonNullable<VenueProof['notFreshBecause']> {
  if (book === undefined || venue.ageMs === null) return 'no_book';
  if (!book.inSync) return 'out_of_sync';
  if (book.crossed) return 'crossed';
  if (venue.aheadOfClock) return 'ahead_of_clock';
  return 'stale';
}
