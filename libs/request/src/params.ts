import { BALANCE_MODES, STRATEGIES } from '@app/routing';
import { ROUTE_DEFAULTS, type RouteMode } from './defaults';
import { REQUEST_LIMITS } from './limits';

/** Every parameter GET /route, POST /route, the stream and backtest schedules know. */
export const ROUTE_PARAM_NAMES = [
  'from',
  'to',
  'amountIn',
  'amountOut',
  'strategy',
  'maxVenues',
  'bridges',
  'hopPenaltyBps',
  'exchanges',
  'certified',
  'includeFees',
  'includeQuotes',
  'balances',
  'balanceMode',
  'minLegNotional',
  'requireFullFill',
  'asOf',
] as const;
export type RouteParamName = (typeof ROUTE_PARAM_NAMES)[number];

interface Common {
  readonly name: RouteParamName;
  readonly description: string;
  /** Entry points that accept it; elsewhere it is refused with `unavailable`. */
  readonly modes: readonly RouteMode[];
  readonly unavailable?: string;
  readonly required?: boolean;
  /** The documented default (the parsers take it from ROUTE_DEFAULTS). */
  readonly default?: unknown;
  readonly example?: unknown;
}

/** One parameter's rules: the parsers, the validators and the OpenAPI document read only this. */
export type ParamSpec = Common &
  (
    | { readonly kind: 'asset' }
    | {
        readonly kind: 'number';
        readonly min: number;
        readonly max?: number;
        /** min itself is refused (amounts: > 0). */
        readonly minExclusive?: boolean;
        readonly integer?: boolean;
      }
    | { readonly kind: 'enum'; readonly values: readonly string[] }
    | { readonly kind: 'list'; readonly item: 'asset' | 'venue'; readonly maxItems: number }
    /** `on: 'true'`: enabled only by the exact value true; `on: 'false'`: disabled only by false. */
    | { readonly kind: 'flag'; readonly only: 'true' | 'false' }
    | { readonly kind: 'balances' }
    | { readonly kind: 'epochMs' }
  );

const ALL: readonly RouteMode[] = ['rest', 'stream', 'schedule'];
const ASSET_RULE = 'trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -';

/** The route parameters, in the spec's order (spec 4.1; clarifications 8-9). */
export const ROUTE_PARAMS: readonly ParamSpec[] = [
  {
    name: 'from',
    kind: 'asset',
    required: true,
    modes: ALL,
    description: `Asset spent; ${ASSET_RULE}.`,
    example: 'USDT',
  },
  {
    name: 'to',
    kind: 'asset',
    required: true,
    modes: ALL,
    description: `Asset wanted; must differ from \`from\`; ${ASSET_RULE}.`,
    example: 'BTC',
  },
  {
    name: 'amountIn',
    kind: 'number',
    min: 0,
    minExclusive: true,
    modes: ALL,
    description: 'Exact amount of `from` to spend (> 0). Exactly one of amountIn and amountOut.',
    example: 1000,
  },
  {
    name: 'amountOut',
    kind: 'number',
    min: 0,
    minExclusive: true,
    modes: ALL,
    description:
      'Exact amount of `to` to receive (> 0), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut.',
  },
  {
    name: 'strategy',
    kind: 'enum',
    values: STRATEGIES,
    modes: ALL,
    default: ROUTE_DEFAULTS.strategy,
    description:
      'best_single: one venue per hop; split_optimal: split across every venue at least cost; split_capped: at most maxVenues venues per hop.',
  },
  {
    name: 'maxVenues',
    kind: 'number',
    min: 1,
    integer: true,
    modes: ALL,
    default: ROUTE_DEFAULTS.maxVenues,
    description: 'Venues per hop for split_capped (an integer >= 1).',
  },
  {
    name: 'bridges',
    kind: 'list',
    item: 'asset',
    maxItems: REQUEST_LIMITS.bridges,
    modes: ALL,
    default: ROUTE_DEFAULTS.bridges,
    description: `Intermediary assets tried in this order (at most ${REQUEST_LIMITS.bridges}); explicitly empty disables bridging (direct markets only).`,
  },
  {
    name: 'hopPenaltyBps',
    kind: 'number',
    min: 0,
    max: 10_000,
    modes: ALL,
    default: ROUTE_DEFAULTS.hopPenaltyBps,
    description:
      'How much better, in bps per extra hop, a bridged path must be to beat a direct one (0 to 10000).',
  },
  {
    name: 'exchanges',
    kind: 'list',
    item: 'venue',
    maxItems: REQUEST_LIMITS.exchanges,
    modes: ALL,
    description: `Venue allowlist (at most ${REQUEST_LIMITS.exchanges} ids, case kept, echoed sorted); omitted means every venue, explicitly empty means none.`,
  },
  {
    name: 'certified',
    kind: 'flag',
    only: 'true',
    modes: ALL,
    default: ROUTE_DEFAULTS.certifiedOnly,
    description: 'Only venues marked certified; enabled only by the exact value `true`.',
  },
  {
    name: 'includeFees',
    kind: 'flag',
    only: 'false',
    modes: ALL,
    default: ROUTE_DEFAULTS.includeFees,
    description: 'Rank and price with taker fees; disabled only by the exact value `false`.',
  },
  {
    name: 'includeQuotes',
    kind: 'flag',
    only: 'false',
    modes: ['rest', 'stream'],
    unavailable: 'includeQuotes is not a schedule field (backtests never return quotes)',
    default: ROUTE_DEFAULTS.includeQuotes,
    description:
      'Return per-venue quotes on each hop; disabled only by the exact value `false`. Default true on REST, false on the stream.',
  },
  {
    name: 'balances',
    kind: 'balances',
    modes: ['rest', 'schedule'],
    unavailable: 'balances is not available on the stream',
    description: `Holdings, comma-separated \`[venue.]ASSET:amount\` (at most ${REQUEST_LIMITS.balancesEntries} entries; an entry without a venue applies to every venue); explicitly empty means holding nothing. In a JSON body also an array of entries or an object {"[venue.]ASSET": amount}.`,
  },
  {
    name: 'balanceMode',
    kind: 'enum',
    values: BALANCE_MODES,
    modes: ALL,
    default: ROUTE_DEFAULTS.balanceMode,
    description:
      'cap: route the best fundable size; require: refuse with insufficient_balance. Ignored without balances.',
  },
  {
    name: 'minLegNotional',
    kind: 'number',
    min: 0,
    modes: ALL,
    default: ROUTE_DEFAULTS.minLegNotional,
    description: 'Suppress legs below this quote-currency notional and reallocate their size (>= 0).',
  },
  {
    name: 'requireFullFill',
    kind: 'flag',
    only: 'true',
    modes: ALL,
    default: ROUTE_DEFAULTS.requireFullFill,
    description:
      'Refuse with insufficient_depth when depth cannot cover the size; enabled only by the exact value `true`.',
  },
  {
    name: 'asOf',
    kind: 'epochMs',
    modes: ['rest'],
    unavailable: 'asOf is not available on the stream (a stream follows the live books)',
    description:
      'Quote against the books as they were at this instant (epoch ms, a plain integer, not in the future); the clock is that instant.',
    example: 1786300060000,
  },
];

/** The spec of each parameter by name. */
export const PARAM_BY_NAME: ReadonlyMap<string, ParamSpec> = new Map(ROUTE_PARAMS.map((p) => [p.name, p]));
