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
import { queryOf } from '../route/route.controller';
import {
  MarketService,
  type OrderBookJson,
  type StorageStatusJson,
  type VenueStatusJson,
} from './market.service';

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
class StorageStatusDto {
  @ApiProperty({ type: String, example: 'ok' }) status!: string;
  @ApiProperty({ type: Number, description: 'Log entries skipped because their bytes are damaged.' })
  damagedEntries!: number;
  @ApiProperty({
    type: [Object],
    description: 'The first damaged stretches: topic, partition, offsets, file, byte.',
  })
  damage!: object[];
  @ApiProperty({ type: [String] }) problems!: string[];
  @ApiProperty({
    type: Number,
    description: 'Books the log could not rebuild (no snapshot since caught up).',
  })
  booksNotRebuilt!: number;
}
class ExchangesStatusDto {
  @ApiProperty({ type: [VenueStatusDto] }) exchanges!: VenueStatusDto[];
  @ApiProperty({ type: StorageStatusDto, description: 'The event log as this server reads it.' })
  log!: StorageStatusDto;
}
class HealthDto {
  @ApiProperty({
    type: String,
    example: 'ok',
    description:
      '`starting` until the cache has caught up with the log; then `ok`, or `degraded` while the log is damaged (entries skipped, a stray file) or books could not be rebuilt (details in /exchanges/status `log`).',
  })
  status!: string;
  @ApiProperty({ type: Number }) uptimeSec!: number;
}

/** Cached books, symbols, venue status and health (spec 4.4-4.7). */
@ApiTags('market')
@Controller()
export class MarketController {
  private readonly startedAt = performance.now();

  constructor(@Inject(MarketService) private readonly markets: MarketService) {}

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
  exchanges(): { exchanges: VenueStatusJson[]; log: StorageStatusJson } {
    return { exchanges: this.markets.venues(), log: this.markets.storage() };
  }

  @Get('health')
  @ApiOkResponse({ type: HealthDto })
  health(): { status: string; uptimeSec: number } {
    return {
      status: this.markets.status(),
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
