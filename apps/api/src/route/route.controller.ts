import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteBodyDto } from './route-body.dto';
import { bodyToRaw } from './route-body';
import { ParamsCache } from './params-cache';
import { parseRouteParams, type ParamsParse } from './parse-route-params';
import { RouteQueryDto } from './route-query.dto';
import { RouteService } from './route.service';
import { RouteResultDto } from './route-result.dto';

/** GET and POST /route: parse, solve, map the outcome to a status (spec 4.1, 4.2, 7). */
@ApiTags('route')
@Controller('route')
export class RouteController {
  private readonly recent = new ParamsCache();

  constructor(@Inject(RouteService) private readonly routes: RouteService) {}

  @Get()
  @ApiOperation({
    summary:
      'Quote a conversion (404 no_market and 501 exact_out_multi_hop_unsupported carry a full RouteResult).',
  })
  @ApiOkResponse({ type: RouteResultDto })
  @ApiBadRequestResponse({ description: '{error}: invalid parameters' })
  getRoute(
    @Query() query: RouteQueryDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> {
    // Fastify decodes `query` from exactly this text, so the parse can be keyed by it.
    const at = req.url.indexOf('?');
    const parsed = this.recent.get(at < 0 ? '' : req.url.slice(at + 1), () =>
      parseRouteParams(query as unknown as Record<string, unknown>, 'rest'),
    );
    return this.answer(parsed, reply);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Same as GET /route with a JSON body (at most 64 KiB); recommended for balances. Query parameters are 400.',
  })
  @ApiBody({ type: RouteBodyDto })
  @ApiOkResponse({ type: RouteResultDto })
  @ApiBadRequestResponse({ description: '{error}: invalid parameters or body' })
  postRoute(
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> | object {
    if (Object.keys(req.query as object).length > 0)
      return this.badRequest(
        reply,
        'query parameters are not accepted on POST /route; send them in the JSON body',
      );
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return this.badRequest(reply, 'Content-Type must be application/json');
    const raw = bodyToRaw(body);
    return this.answer(raw.ok ? parseRouteParams(raw.raw, 'rest') : raw, reply);
  }

  /**
   * The body is serialised once; exactly that text is journalled (hashed) and sent, as its UTF-8
   * bytes: Fastify and Node then write the buffer as it is, instead of prepending the headers to
   * a copy of the 15 KB string and encoding it again (fewer young-generation collections).
   */
  private async answer(parsed: ParamsParse, reply: FastifyReply): Promise<Buffer | object> {
    if (!parsed.ok) return this.badRequest(reply, parsed.error);
    const requestId = String(reply.getHeader('x-request-id'));
    const answer = await this.routes.quote(parsed.params, requestId, parsed.asOf);
    void reply.status(answer.status);
    if (!answer.ok) return { error: answer.error };
    void reply.header('content-type', 'application/json; charset=utf-8');
    return Buffer.from(answer.body, 'utf8');
  }

  private badRequest(reply: FastifyReply, error: string): object {
    void reply.status(400);
    return { error };
  }
}
