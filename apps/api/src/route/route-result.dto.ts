import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Response schemas for the OpenAPI document (spec 2.1-2.5); the solver's types are the source of truth.
const num = { type: Number };
const numOrNull = { type: Number, nullable: true };
const side = { enum: ['buy', 'sell'] };

export class LegDto {
  @ApiProperty({ type: String }) exchangeId!: string;
  @ApiProperty({ ...num, description: 'Base units.' }) amount!: number;
  @ApiProperty(num) averagePrice!: number;
  @ApiProperty(num) takerFeeRate!: number;
  @ApiProperty(num) feeCost!: number;
  @ApiProperty(num) effectivePrice!: number;
  @ApiPropertyOptional({ type: Boolean, description: 'Present only when balances were supplied.' })
  balanceLimited?: boolean;
}

export class QuoteDto {
  @ApiProperty({ type: String }) exchangeId!: string;
  @ApiProperty(side) side!: string;
  @ApiProperty(num) requestedAmount!: number;
  @ApiProperty(num) filledAmount!: number;
  @ApiProperty(numOrNull) averagePrice!: number | null;
  @ApiProperty(numOrNull) effectivePriceWithFee!: number | null;
  @ApiProperty(num) takerFeeRate!: number;
  @ApiProperty({ type: Boolean }) fullyFillable!: boolean;
  @ApiProperty({ type: Number, nullable: true }) bookAgeMs!: number | null;
}

export class HopDto {
  @ApiProperty({ type: String, example: 'BTC/USDT' }) pair!: string;
  @ApiProperty(side) side!: string;
  @ApiProperty({ type: String }) base!: string;
  @ApiProperty({ type: String }) quote!: string;
  @ApiProperty(num) amountIn!: number;
  @ApiProperty(num) amountOut!: number;
  @ApiProperty({ type: [LegDto] }) legs!: LegDto[];
  @ApiProperty(num) feeCost!: number;
  @ApiProperty({ type: String }) feeCurrency!: string;
  @ApiProperty({ type: Boolean }) fullyFillable!: boolean;
  @ApiProperty(numOrNull) referencePrice!: number | null;
  @ApiProperty(numOrNull) impactBps!: number | null;
  @ApiProperty({ type: Number }) venueCount!: number;
  @ApiProperty({ type: Number }) freshVenueCount!: number;
  @ApiPropertyOptional({ type: [QuoteDto] }) quotes?: QuoteDto[];
}

export class PathConsideredDto {
  @ApiProperty({ type: [String] }) pairs!: string[];
  @ApiProperty({ type: String, nullable: true }) bridge!: string | null;
  @ApiProperty(num) amountOut!: number;
  @ApiProperty({ type: Boolean }) fullyFillable!: boolean;
  @ApiProperty(num) score!: number;
  @ApiProperty({ type: Boolean }) chosen!: boolean;
}

export class RouteResultDto {
  @ApiProperty({ type: String }) requestId!: string;
  @ApiProperty({ type: Number, description: 'Epoch ms.' }) calculatedAt!: number;
  @ApiProperty({ type: String }) calculatedAtIso!: string;
  @ApiProperty({ type: String }) from!: string;
  @ApiProperty({ type: String }) to!: string;
  @ApiProperty(num) amountIn!: number;
  @ApiProperty(num) amountOut!: number;
  @ApiProperty(num) requestedAmount!: number;
  @ApiProperty({ enum: ['in', 'out'] }) exactSide!: string;
  @ApiProperty(numOrNull) effectiveRate!: number | null;
  @ApiProperty(numOrNull) referenceRate!: number | null;
  @ApiProperty(numOrNull) impactBps!: number | null;
  @ApiProperty({ type: [HopDto] }) hops!: HopDto[];
  @ApiProperty({ type: Boolean }) fullyFillable!: boolean;
  @ApiProperty(num) fillRatio!: number;
  @ApiProperty(num) unfilledAmount!: number;
  @ApiProperty({
    enum: [
      'no_market',
      'exact_out_multi_hop_unsupported',
      'no_venues_matched_filter',
      'all_books_stale',
      'no_liquidity',
      'insufficient_depth',
      'insufficient_balance',
    ],
    nullable: true,
  })
  unroutableReason!: string | null;
  @ApiProperty({ type: Number, nullable: true }) unroutableHopIndex!: number | null;
  @ApiProperty({ type: [String] }) warnings!: string[];
  @ApiProperty(numOrNull) savingVsBestSingleBps!: number | null;
  @ApiProperty({ type: [PathConsideredDto] }) pathsConsidered!: PathConsideredDto[];
  @ApiProperty({ enum: ['best_single', 'split_optimal', 'split_capped'] }) strategy!: string;
  @ApiProperty({ type: Boolean }) includeFees!: boolean;
  @ApiProperty({ type: [String], nullable: true }) exchangesFilter!: string[] | null;
  @ApiProperty({ type: Boolean }) certifiedOnly!: boolean;
  @ApiProperty(num) staleBookMs!: number;
  @ApiProperty(num) stalenessPenaltyBps!: number;
  @ApiProperty(num) hopPenaltyBps!: number;
  @ApiProperty({ type: Boolean }) requireFullFill!: boolean;
}
