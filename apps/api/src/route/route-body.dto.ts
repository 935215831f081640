import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** POST /route body (clarifications 9): JSON types; the string forms of GET are also accepted. */
export class RouteBodyDto {
  @ApiProperty({ type: String, example: 'USDT' }) from!: string;
  @ApiProperty({ type: String, example: 'BTC' }) to!: string;
  @ApiPropertyOptional({ type: Number, example: 1000 }) amountIn?: number;
  @ApiPropertyOptional({ type: Number }) amountOut?: number;
  @ApiPropertyOptional({ enum: ['best_single', 'split_optimal', 'split_capped'], default: 'best_single' })
  strategy?: string;
  @ApiPropertyOptional({ type: Number, default: 3 }) maxVenues?: number;
  @ApiPropertyOptional({
    type: [String],
    description: 'Array or comma string; [] disables bridging.',
    default: ['USDT', 'USDC', 'BTC', 'ETH'],
  })
  bridges?: string[];
  @ApiPropertyOptional({ type: Number, default: 5 }) hopPenaltyBps?: number;
  @ApiPropertyOptional({ type: [String], description: 'Array or comma string; [] means no venues.' })
  exchanges?: string[];
  @ApiPropertyOptional({ type: Boolean, default: false }) certified?: boolean;
  @ApiPropertyOptional({ type: Boolean, default: true }) includeFees?: boolean;
  @ApiPropertyOptional({ type: Boolean, default: true }) includeQuotes?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    description:
      'Object {"ASSET" | "venue.ASSET": amount}, or the string form `[venue.]ASSET:amount,...`; {} means holding nothing.',
    example: { USDT: 500, 'kraken.USDT': 100 },
  })
  balances?: Record<string, number> | string;
  @ApiPropertyOptional({ enum: ['cap', 'require'], default: 'cap' }) balanceMode?: string;
  @ApiPropertyOptional({ type: Number, default: 0 }) minLegNotional?: number;
  @ApiPropertyOptional({ type: Boolean, default: false }) requireFullFill?: boolean;
  @ApiPropertyOptional({
    type: Number,
    description: 'Epoch ms (integer, not in the future): quote against the books of that instant.',
  })
  asOf?: number;
}
