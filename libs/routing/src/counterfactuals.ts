import { BPS } from './numeric';
import type { PathOutcome } from './path-solve';
import { solve, solveTraced, type Decision } from './solve';
import type {
  RouteRequest,
  RouteResult,
  RoutingConfig,
  SolveInput,
  Strategy,
  UnroutableReason,
} from './types';

// The cost of each constraint (docs/explain.md section 2): the same snapshot solved again with one
// thing changed. Every row is exactly `solve` of the request and config it names.

/** How a route compares with another: its amounts and what choosing the route costs against it. */
export interface Outcome {
  /** The amount the caller did not pin: amountOut (in `to`) when exact-in, amountIn (in `from`) when exact-out. */
  value: number;
  fillRatio: number;
  fullyFillable: boolean;
  unroutableReason: UnroutableReason | null;
  /** amountOut / amountIn; null when nothing routed. */
  effectiveRate: number | null;
  /**
   * (1 - routeRate / thisRate) * 10000, an unroutable route's rate counting as 0: positive when
   * this alternative gives a better rate than the route. Null when the alternative routes nothing.
   */
  costBps: number | null;
}

/** A counterfactual solve: the request (and config) changed as stated, then solved as is. */
export interface Counterfactual extends Outcome {
  name: string;
  /** Request fields that differ from the original. */
  requestChange: Partial<RouteRequest>;
  /** Config fields that differ (the staleness penalty is server configuration). */
  configChange: Partial<RoutingConfig>;
  /** `solve({ ...input, request: {...request, ...requestChange}, config: {...config, ...configChange} })`. */
  result: RouteResult;
}

/** A strategy's row: the request's own strategy is the route itself (`current`, no re-solve). */
export interface StrategyCost extends Omit<Counterfactual, 'result'> {
  current: boolean;
  /** Null for the current strategy: its result is the route. */
  result: RouteResult | null;
}

/** One candidate path of the route's own solve. */
export interface PathCost extends Outcome {
  pairs: string[];
  bridge: string | null;
  chosen: boolean;
  amountIn: number;
  amountOut: number;
  /** The score the path was compared by; null for exact-out. */
  score: number | null;
}

/** What the route gave and what each alternative would give, on one snapshot. */
export interface ConstraintCosts {
  requestId: string;
  /** The asset of every `value`: `to` when exact-in, `from` when exact-out. */
  valueAsset: string;
  route: Omit<Outcome, 'costBps'>;
  /** best_single, split_optimal, split_capped, in that order. */
  strategies: StrategyCost[];
  /** Direct and each bridge, in candidate order, from the route's own solve. */
  paths: PathCost[];
  /** One row per active constraint, in a fixed order. */
  constraints: Counterfactual[];
}

const STRATEGIES: readonly Strategy[] = ['best_single', 'split_optimal', 'split_capped'];

/** The constraints a request can carry, in report order, each with the change that lifts it. */
const CONSTRAINTS: readonly {
  name: string;
  active: (r: RouteRequest, c: RoutingConfig, ruled: boolean) => boolean;
  request?: Partial<RouteRequest>;
  config?: Partial<RoutingConfig>;
}[] = [
  { name: 'requireFullFill', active: (r) => r.requireFullFill, request: { requireFullFill: false } },
  { name: 'minLegNotional', active: (r) => r.minLegNotional > 0, request: { minLegNotional: 0 } },
  { name: 'balances', active: (r) => r.balances !== null, request: { balances: null } },
  {
    name: 'maxVenues',
    active: (r) => r.strategy === 'split_capped',
    request: { maxVenues: Number.MAX_SAFE_INTEGER },
  },
  {
    name: 'stalenessPenalty',
    active: (_, c) => c.stalenessPenaltyBps > 0,
    config: { stalenessPenaltyBps: 0 },
  },
  { name: 'certifiedOnly', active: (r) => r.certifiedOnly, request: { certifiedOnly: false } },
  { name: 'exchanges', active: (r) => r.exchanges !== null, request: { exchanges: null } },
  // Active when some market the solve read carries order rules (docs/semantics.md section 13).
  { name: 'venueRules', active: (_, __, ruled) => ruled, config: { ignoreVenueRules: true } },
];

/**
 * The cost of each constraint and choice of `input`'s request, from `input`'s snapshot and clock.
 * Counterfactual solves run with includeQuotes=false (quotes never change a route, and skipping
 * them halves the work); that change is part of each row's `requestChange`.
 */
export function constraintCosts(input: SolveInput): ConstraintCosts {
  const { request, config } = input;
  const kept: { decision: Decision | null } = { decision: null };
  const route = solveTraced(input, (d) => {
    kept.decision = d;
  });
  const routeRate = route.effectiveRate ?? 0;
  const outcome = (r: RouteResult): Outcome => ({
    value: valueOf(request, r.amountIn, r.amountOut),
    fillRatio: r.fillRatio,
    fullyFillable: r.fullyFillable,
    unroutableReason: r.unroutableReason,
    effectiveRate: r.effectiveRate,
    costBps: costBps(routeRate, r.effectiveRate),
  });
  const counterfactual = (
    name: string,
    change: Partial<RouteRequest>,
    configChange: Partial<RoutingConfig> = {},
  ): Counterfactual => {
    const requestChange = { ...change, includeQuotes: false };
    const result = solve({
      request: { ...request, ...requestChange },
      books: input.books,
      now: input.now,
      config: { ...config, ...configChange },
    });
    return { name, requestChange, configChange, ...outcome(result), result };
  };
  const { costBps: _, ...routeOutcome } = outcome(route);
  return {
    requestId: request.requestId,
    valueAsset: request.exactSide === 'in' ? request.to : request.from,
    route: routeOutcome,
    strategies: STRATEGIES.map((s): StrategyCost => {
      if (s !== request.strategy) return { ...counterfactual(s, { strategy: s }), current: false };
      return { name: s, requestChange: {}, configChange: {}, ...outcome(route), current: true, result: null };
    }),
    paths: kept.decision === null ? [] : pathCosts(kept.decision, request, routeRate),
    constraints: CONSTRAINTS.filter((c) => c.active(request, config, ruled(kept.decision))).map((c) =>
      counterfactual(c.name, c.request ?? {}, c.config),
    ),
  };
}

/** Some hop the route's own solve walked was on a market carrying order rules. */
function ruled(d: Decision | null): boolean {
  return d?.outcomes.some((o) => o?.hops.some((h) => h.ctx.ruled) ?? false) ?? false;
}

function valueOf(request: RouteRequest, amountIn: number, amountOut: number): number {
  return request.exactSide === 'in' ? amountOut : amountIn;
}

function costBps(routeRate: number, rate: number | null): number | null {
  return rate === null || rate <= 0 ? null : (1 - routeRate / rate) * BPS;
}

/** Each solved candidate as `solve` would report it alone (the figures `routed` derives). */
function pathCosts(d: Decision, request: RouteRequest, routeRate: number): PathCost[] {
  const out: PathCost[] = [];
  d.outcomes.forEach((o: PathOutcome | null, i) => {
    if (o === null) return;
    const routed = o.reason === null && o.amountOut > 0;
    const achieved = request.exactSide === 'in' ? o.amountIn : o.amountOut;
    const rate = routed ? o.amountOut / o.amountIn : null;
    out.push({
      pairs: o.candidate.steps.map((s) => s.symbol),
      bridge: o.candidate.bridge,
      chosen: i === d.winner,
      amountIn: o.amountIn,
      amountOut: o.amountOut,
      score: d.scores === null ? null : d.scores[i]!,
      value: valueOf(request, o.amountIn, o.amountOut),
      fillRatio: !routed ? 0 : o.full ? 1 : achieved / request.amount,
      fullyFillable: routed && o.full,
      unroutableReason: o.reason ?? (routed ? null : 'no_liquidity'),
      effectiveRate: rate,
      costBps: costBps(routeRate, rate),
    });
  });
  return out;
}
