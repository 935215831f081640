import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDefined,
  IsIn,
  IsOptional,
  Matches,
  registerDecorator,
  type ValidationArguments,
} from 'class-validator';
import { parseBalances } from './balances';
import { IsPlainNumber } from './plain-number';
import { ASSET } from './route-patterns';
const ASSET_LIST = /^\s*$|^\s*[A-Za-z0-9._-]{1,32}\s*(,\s*[A-Za-z0-9._-]{1,32}\s*)*$/;
/** Epoch ms as a plain integer: digits only (no sign, fraction or exponent), at most 16 of them. */
export const AS_OF = /^\d{1,16}$/;
const VENUE_LIST = /^\s*$|^\s*[A-Za-z0-9._-]{1,64}\s*(,\s*[A-Za-z0-9._-]{1,64}\s*)*$/;

/** Every parameter name GET /route, POST /route and the stream accept (others are 400). */
export const ROUTE_PARAMS = [
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
export type RouteParamName = (typeof ROUTE_PARAMS)[number];

/**
 * The route parameters in their string (query) form, validated by class-validator. POST bodies are
 * brought to this form first, so one set of rules serves GET, POST and the stream.
 */
export class RouteQueryDto {
  @ApiProperty({
    type: String,
    description: 'Asset spent; trimmed, upper-cased, ^[A-Z0-9._-]{1,32}$.',
    example: 'USDT',
  })
  @IsDefined({ message: 'from is required' })
  @Matches(ASSET, {
    message: 'from must be an asset symbol matching ^[A-Z0-9._-]{1,32}$ after trim and upper-case',
  })
  from!: string;

  @ApiProperty({ type: String, description: 'Asset wanted; must differ from `from`.', example: 'BTC' })
  @IsDefined({ message: 'to is required' })
  @Matches(ASSET, {
    message: 'to must be an asset symbol matching ^[A-Z0-9._-]{1,32}$ after trim and upper-case',
  })
  to!: string;

  @ApiPropertyOptional({
    type: Number,
    description: 'Exact amount of `from` (> 0). Exactly one of amountIn and amountOut.',
    example: 1000,
  })
  @IsOptional()
  @IsPlainNumber({ min: 0, minExclusive: true })
  amountIn?: string;

  @ApiPropertyOptional({
    type: Number,
    description: 'Exact amount of `to` (> 0). Exactly one of amountIn and amountOut.',
  })
  @IsOptional()
  @IsPlainNumber({ min: 0, minExclusive: true })
  amountOut?: string;

  @ApiPropertyOptional({ enum: ['best_single', 'split_optimal', 'split_capped'], default: 'best_single' })
  @IsOptional()
  @IsIn(['best_single', 'split_optimal', 'split_capped'], {
    message: 'strategy must be one of best_single, split_optimal, split_capped',
  })
  strategy?: string;

  @ApiPropertyOptional({
    type: Number,
    description: 'Per-hop venue cap for split_capped (integer >= 1).',
    default: 3,
  })
  @IsOptional()
  @IsPlainNumber({ min: 1, integer: true })
  maxVenues?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Comma-separated bridge assets; explicitly empty disables bridging.',
    default: 'USDT,USDC,BTC,ETH',
  })
  @IsOptional()
  @Matches(ASSET_LIST, {
    message: 'bridges must be a comma-separated list of assets (empty disables bridging)',
  })
  bridges?: string;

  @ApiPropertyOptional({ type: Number, description: 'Penalty per extra hop, 0 to 10000 bps.', default: 5 })
  @IsOptional()
  @IsPlainNumber({ min: 0, max: 10_000 })
  hopPenaltyBps?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Comma-separated venue allowlist; explicitly empty means no venues.',
  })
  @IsOptional()
  @Matches(VENUE_LIST, {
    message: 'exchanges must be a comma-separated list of venue ids (empty means no venues)',
  })
  exchanges?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Only certified venues; enabled only by the exact value `true`.',
    default: 'false',
  })
  @IsOptional()
  certified?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Disabled only by the exact value `false`.',
    default: 'true',
  })
  @IsOptional()
  includeFees?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Disabled only by the exact value `false`. Default true on REST, false on the stream.',
  })
  @IsOptional()
  includeQuotes?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      'Holdings, comma-separated `[venue.]ASSET:amount`; empty means holding nothing. Not on the stream.',
  })
  @IsOptional()
  @IsBalances()
  balances?: string;

  @ApiPropertyOptional({ enum: ['cap', 'require'], default: 'cap' })
  @IsOptional()
  @IsIn(['cap', 'require'], { message: 'balanceMode must be cap or require' })
  balanceMode?: string;

  @ApiPropertyOptional({
    type: Number,
    description: 'Suppress legs below this quote notional (>= 0).',
    default: 0,
  })
  @IsOptional()
  @IsPlainNumber({ min: 0 })
  minLegNotional?: string;

  @ApiPropertyOptional({
    type: String,
    description: 'Enabled only by the exact value `true`.',
    default: 'false',
  })
  @IsOptional()
  requireFullFill?: string;

  @ApiPropertyOptional({
    type: Number,
    description:
      'Quote against the books as they were at this instant (epoch ms, a plain integer, not in the future); the clock is that instant. REST only.',
    example: 1786300060000,
  })
  @IsOptional()
  @Matches(AS_OF, { message: "asOf must be a plain integer of epoch milliseconds, got '$value'" })
  asOf?: string;
}

/** class-validator rule: a balances string that parseBalances accepts. */
function IsBalances(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isBalances',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseBalances(value).ok,
        defaultMessage: (args: ValidationArguments) => {
          const parsed = parseBalances(String(args.value));
          return parsed.ok ? '' : parsed.error;
        },
      },
    });
  };
}
