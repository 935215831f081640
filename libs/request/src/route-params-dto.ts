import { BALANCE_MODES, STRATEGIES, type BalanceMode, type Balances, type Strategy } from '@app/routing';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotIn,
  IsNumber,
  IsPositive,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { ROUTE_DEFAULTS } from './defaults';
import { PROTOTYPE_KEYS, REQUEST_LIMITS, SMALLEST_AMOUNT } from './limits';
import { AcceptedIn, Distinct, ExactlyOneOf, IsBalances, Param } from './param-decorators';
import {
  NOT_AN_ASSET,
  REQUIRED,
  WRITTEN,
  mustBe,
  notEpochMs,
  notPositive,
  oneOf,
  outOfRange,
  tooMany,
  type Written,
} from './rule-messages';
import { ASSET, VENUE } from './scan';

const ASSET_RULE = 'trimmed and upper-cased, then 1 to 32 of A-Z 0-9 . _ -';
const A_NUMBER = { message: mustBe('a number') };
const IN_RANGE = { message: outOfRange };
/** Amounts: not positive is "> 0" as ever; positive but below SMALLEST_AMOUNT names that bound. */
const POSITIVE = { message: notPositive };
const A_LIST = { message: mustBe('an array of strings or a comma-separated string') };
const NOT_ASSETS = 'bridges must be a comma-separated list of assets (empty disables bridging)';
const NOT_VENUES = 'exchanges must be a comma-separated list of venue ids (empty means no venues)';

/**
 * The route request (spec 4.1; clarifications 8-9) as one class-validator DTO: GET and POST
 * /route, /route/explain, the stream URL and backtest schedule entries decode their parameters
 * into it (values.ts) and validateSync checks it (parse.ts); stored journal requests are checked
 * against the same rules (validate.ts), and the OpenAPI and AsyncAPI parameter and body schemas are
 * generated from its metadata (openapi.ts). Its decorators are the one declaration of the rules:
 * each property's are written in the order they are checked (the type first), and the first that
 * fails is the one the 400 names. The strict scanners in front (query splitting, strict JSON, caps,
 * text forms) have run before any value gets here.
 */
@ExactlyOneOf('amountIn', 'amountOut', 'exactly one of amountIn and amountOut must be supplied')
@Distinct('from', 'to', (v) => `from and to must differ (both are ${String(v)})`)
export class RouteParamsDto implements Written {
  declare [WRITTEN]?: Record<string, string>;

  @Param('asset', { description: `Asset spent; ${ASSET_RULE}.`, example: 'USDT' })
  @IsDefined({ message: REQUIRED })
  @IsString({ message: mustBe('a string') })
  @Matches(ASSET, { message: NOT_AN_ASSET })
  from!: string;

  @Param('asset', {
    description: `Asset wanted; must differ from \`from\`; ${ASSET_RULE}.`,
    example: 'BTC',
  })
  @IsDefined({ message: REQUIRED })
  @IsString({ message: mustBe('a string') })
  @Matches(ASSET, { message: NOT_AN_ASSET })
  to!: string;

  @Param('number', {
    description: `Exact amount of \`from\` to spend (at least ${SMALLEST_AMOUNT}). Exactly one of amountIn and amountOut.`,
    example: 1000,
  })
  @IsNumber({}, A_NUMBER)
  @IsPositive(POSITIVE)
  @Min(SMALLEST_AMOUNT, IN_RANGE)
  amountIn?: number;

  @Param('number', {
    description: `Exact amount of \`to\` to receive (at least ${SMALLEST_AMOUNT}), direct markets only (a bridge-only conversion is 501). Exactly one of amountIn and amountOut.`,
  })
  @IsNumber({}, A_NUMBER)
  @IsPositive(POSITIVE)
  @Min(SMALLEST_AMOUNT, IN_RANGE)
  amountOut?: number;

  @Param('enum', {
    description:
      'best_single: one venue per hop; split_optimal: split across every venue at least cost; split_capped: at most maxVenues venues per hop.',
    default: ROUTE_DEFAULTS.strategy,
  })
  @IsString({ message: mustBe('a string') })
  @IsIn(STRATEGIES, { message: oneOf(STRATEGIES) })
  strategy?: Strategy;

  @Param('number', {
    description: 'Venues per hop for split_capped (an integer >= 1).',
    default: ROUTE_DEFAULTS.maxVenues,
  })
  @IsNumber({}, A_NUMBER)
  @IsInt(IN_RANGE)
  @Min(1, IN_RANGE)
  maxVenues?: number;

  @Param('assetList', {
    description: `Intermediary assets tried in this order (at most ${REQUEST_LIMITS.bridges}); explicitly empty disables bridging (direct markets only).`,
    default: ROUTE_DEFAULTS.bridges,
  })
  @IsArray(A_LIST)
  @ArrayMaxSize(REQUEST_LIMITS.bridges, { message: tooMany })
  @Matches(ASSET, { each: true, message: NOT_ASSETS })
  bridges?: string[];

  @Param('number', {
    description:
      'How much better, in bps per extra hop, a bridged path must be to beat a direct one (0 to 10000).',
    default: ROUTE_DEFAULTS.hopPenaltyBps,
  })
  @IsNumber({}, A_NUMBER)
  @Min(0, IN_RANGE)
  @Max(10_000, IN_RANGE)
  hopPenaltyBps?: number;

  @Param('venueList', {
    description: `Venue allowlist (at most ${REQUEST_LIMITS.exchanges} ids, case kept, echoed sorted); omitted means every venue, explicitly empty means none.`,
  })
  @IsArray(A_LIST)
  @ArrayMaxSize(REQUEST_LIMITS.exchanges, { message: tooMany })
  @Matches(VENUE, { each: true, message: NOT_VENUES })
  @IsNotIn(PROTOTYPE_KEYS, { each: true, message: NOT_VENUES })
  exchanges?: string[];

  @Param('flag', {
    description: 'Only venues marked certified; enabled only by the exact value `true`.',
    default: ROUTE_DEFAULTS.certifiedOnly,
  })
  @IsBoolean({ message: mustBe('a boolean') })
  certified?: boolean;

  @Param('flag', {
    description: 'Rank and price with taker fees; disabled only by the exact value `false`.',
    default: ROUTE_DEFAULTS.includeFees,
  })
  @IsBoolean({ message: mustBe('a boolean') })
  includeFees?: boolean;

  @Param('flag', {
    description:
      'Return per-venue quotes on each hop; disabled only by the exact value `false`. Default true on REST, false on the stream.',
    default: ROUTE_DEFAULTS.includeQuotes,
  })
  @AcceptedIn(['rest', 'stream'], 'includeQuotes is not a schedule field (backtests never return quotes)')
  @IsBoolean({ message: mustBe('a boolean') })
  includeQuotes?: boolean;

  @Param('balances', {
    description: `Holdings, comma-separated \`[venue.]ASSET:amount\` (at most ${REQUEST_LIMITS.balancesEntries} entries; an entry without a venue applies to every venue); explicitly empty means holding nothing. In a JSON body also an array of entries or an object {"[venue.]ASSET": amount}.`,
  })
  @AcceptedIn(['rest', 'schedule'], 'balances is not available on the stream')
  @IsBalances({ message: 'balances must be a string, an array or an object' })
  balances?: Balances;

  @Param('enum', {
    description:
      'cap: route the best fundable size; require: refuse with insufficient_balance. Ignored without balances.',
    default: ROUTE_DEFAULTS.balanceMode,
  })
  @IsString({ message: mustBe('a string') })
  @IsIn(BALANCE_MODES, { message: oneOf(BALANCE_MODES) })
  balanceMode?: BalanceMode;

  @Param('number', {
    description: 'Suppress legs below this quote-currency notional and reallocate their size (>= 0).',
    default: ROUTE_DEFAULTS.minLegNotional,
  })
  @IsNumber({}, A_NUMBER)
  @Min(0, IN_RANGE)
  minLegNotional?: number;

  @Param('flag', {
    description:
      'Refuse with insufficient_depth when depth cannot cover the size; enabled only by the exact value `true`.',
    default: ROUTE_DEFAULTS.requireFullFill,
  })
  @IsBoolean({ message: mustBe('a boolean') })
  requireFullFill?: boolean;

  @Param('epochMs', {
    description:
      'Quote against the books as they were at this instant (epoch ms, a plain integer, not in the future); the clock is that instant.',
    example: 1786300060000,
  })
  @AcceptedIn(['rest'], 'asOf is not available on the stream (a stream follows the live books)')
  @IsNumber({}, A_NUMBER)
  @IsInt({ message: notEpochMs })
  @Min(0, { message: notEpochMs })
  @Max(Number.MAX_SAFE_INTEGER, { message: notEpochMs })
  asOf?: number;
}

/** A parameter's name: a property of the DTO. */
export type RouteParamName = Exclude<keyof RouteParamsDto, typeof WRITTEN>;
