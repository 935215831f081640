import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseNamedQuery, queryOf } from '@app/request';
import { ServiceStatus } from '../health/service-status';
import type { ErrorBody, ExchangesStatus, Health, Symbols } from '../docs/schemas';
import { MarketService, type OrderBookJson } from './market.service';

/** Cached books, symbols, venue status and health (spec 4.4-4.7; documented in docs/openapi.ts, typed by docs/schemas.ts). */
@Controller()
export class MarketController {
  private readonly startedAt = performance.now();

  constructor(
    @Inject(MarketService) private readonly markets: MarketService,
    @Inject(ServiceStatus) private readonly serviceStatus: ServiceStatus,
  ) {}

  @Get('orderbook/:exchange/:symbol')
  orderBook(
    @Param('exchange') exchange: string,
    @Param('symbol') symbol: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): OrderBookJson | ErrorBody | Promise<OrderBookJson | ErrorBody> {
    return this.book(exchange, symbol, req, reply);
  }

  // The same book when a client sends the slash unencoded.
  @Get('orderbook/:exchange/:base/:quote')
  orderBookSplit(
    @Param('exchange') exchange: string,
    @Param('base') base: string,
    @Param('quote') quote: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): OrderBookJson | ErrorBody | Promise<OrderBookJson | ErrorBody> {
    return this.book(exchange, `${base}/${quote}`, req, reply);
  }

  @Get('symbols')
  symbols(): Symbols {
    return { symbols: this.markets.symbols() };
  }

  @Get('exchanges/status')
  async exchanges(): Promise<ExchangesStatus> {
    return { exchanges: this.markets.venues(), log: await this.markets.storage() };
  }

  @Get('health')
  health(): Health {
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
  ): OrderBookJson | ErrorBody | Promise<OrderBookJson | ErrorBody> {
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
  ): Promise<OrderBookJson | ErrorBody> {
    const past = await this.markets.orderBookAsOf(exchange, symbol, asOf);
    if (!past.ok) return this.fail(reply, 400, past.error);
    if (past.book !== null) return past.book;
    return this.fail(reply, 404, `no order book for ${exchange}:${symbol} at asOf ${asOf}`);
  }

  private fail(reply: FastifyReply, status: 400 | 404 | 414, error: string): ErrorBody {
    void reply.status(status);
    return { error };
  }
}
