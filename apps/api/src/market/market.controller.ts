import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseNamedQuery } from '@app/request';
import { ServiceStatus } from '../health/service-status';
import { queryOf } from '../route/route.controller';
import { MarketService, type OrderBookJson, type VenueStatusJson } from './market.service';

class SymbolsDto {
  @ApiProperty({ type: [String], example: ['BTC/USDT', 'ETH/USDT'] }) symbols!: string[];
}
class VenueStatusDto {
  @ApiProperty({ type: String }) exchangeId!: string;
  @ApiProperty({ type: Boolean }) connected!: boolean;
  @ApiProperty({ type: Number, nullable: true }) lastUpdateAt!: number | null;
  @ApiProperty({ type: Number }) updateCount!: number;
  @ApiProperty({ type: Number }) reconnectCount!: number;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
}
class ExchangesStatusDto {
  @ApiProperty({ type: [VenueStatusDto] }) exchanges!: VenueStatusDto[];
}
class HealthDto {
  @ApiProperty({
    type: String,
    enum: ['starting', 'no_fresh_books', 'degraded', 'ok'],
    example: 'ok',
    description:
      'Whether the service can quote: `starting` until the cache has caught up with the event log; `no_fresh_books` when no book is in sync and fresh (every quote is unroutable); `degraded` when fewer than half the known venues have a fresh book or quote journal appends are failing; `ok` otherwise.',
  })
  status!: string;
  @ApiProperty({ type: Number }) uptimeSec!: number;
}

/** Cached books, symbols, venue status and health (spec 4.4-4.7). */
@ApiTags('market')
@Controller()
export class MarketController {
  private readonly startedAt = performance.now();

  constructor(
    @Inject(MarketService) private readonly markets: MarketService,
    @Inject(ServiceStatus) private readonly serviceStatus: ServiceStatus,
  ) {}

  @Get('orderbook/:exchange/:symbol')
  @ApiOperation({ summary: 'The cached order book; symbol URL-encoded (BTC%2FUSDT).' })
  @ApiParam({ name: 'symbol', example: 'BTC%2FUSDT' })
  @ApiQuery({
    name: 'asOf',
    required: false,
    type: Number,
    description:
      'Epoch ms (plain integer, not in the future): the book as it was at that instant, rebuilt from the event log.',
  })
  @ApiNotFoundResponse({ description: '{error: no cached order book for <exchange>:<symbol>}' })
  orderBook(
    @Param('exchange') exchange: string,
    @Param('symbol') symbol: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): OrderBookJson | { error: string } | Promise<OrderBookJson | { error: string }> {
    return this.book(exchange, symbol, req, reply);
  }

  // The same book when a client sends the slash unencoded.
  @Get('orderbook/:exchange/:base/:quote')
  @ApiOperation({ summary: 'Alias of /orderbook/{exchange}/{symbol} with the slash unencoded.' })
  orderBookSplit(
    @Param('exchange') exchange: string,
    @Param('base') base: string,
    @Param('quote') quote: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): OrderBookJson | { error: string } | Promise<OrderBookJson | { error: string }> {
    return this.book(exchange, `${base}/${quote}`, req, reply);
  }

  @Get('symbols')
  @ApiOkResponse({ type: SymbolsDto })
  symbols(): { symbols: string[] } {
    return { symbols: this.markets.symbols() };
  }

  @Get('exchanges/status')
  @ApiOkResponse({ type: ExchangesStatusDto })
  exchanges(): { exchanges: VenueStatusJson[] } {
    return { exchanges: this.markets.venues() };
  }

  @Get('health')
  @ApiOkResponse({ type: HealthDto })
  health(): { status: string; uptimeSec: number } {
    return {
      status: this.serviceStatus.status(),
      uptimeSec: Math.floor((performance.now() - this.startedAt) / 1000),
    };
  }

  private book(
    exchange: string,
    symbol: string,
    req: FastifyRequest,
    reply: FastifyReply,
  ): OrderBookJson | { error: string } | Promise<OrderBookJson | { error: string }> {
    const query = parseNamedQuery(queryOf(req.url), ['asOf']);
    if (!query.ok) return this.fail(reply, query.status, query.error);
    const asOf = query.values.get('asOf') as number | undefined;
    if (asOf !== undefined) return this.pastBook(exchange, symbol, asOf, reply);
    const book = this.markets.orderBook(exchange, symbol);
    if (book !== null) return book;
    void reply.status(404);
    return { error: `no cached order book for ${exchange}:${symbol}` };
  }

  private async pastBook(
    exchange: string,
    symbol: string,
    asOf: number,
    reply: FastifyReply,
  ): Promise<OrderBookJson | { error: string }> {
    const past = await this.markets.orderBookAsOf(exchange, symbol, asOf);
    if (!past.ok) return this.fail(reply, 400, past.error);
    if (past.book !== null) return past.book;
    return this.fail(reply, 404, `no order book for ${exchange}:${symbol} at asOf ${asOf}`);
  }

  private fail(reply: FastifyReply, status: 400 | 404 | 414, error: string): { error: string } {
    void reply.status(status);
    return { error };
  }
}
