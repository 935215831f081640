import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRouteBody, parseRouteQuery, queryOf, type ParamsParse } from '@app/request';
import { RequestId } from '../edge/front-door';
import { ParamsCache } from './params-cache';
import { RouteService } from './route.service';

/** GET and POST /route: parse, solve, map the outcome to a status (spec 4.1, 4.2, 7; documented in docs/openapi.ts). */
@Controller('route')
export class RouteController {
  private readonly recent = new ParamsCache();

  constructor(@Inject(RouteService) private readonly routes: RouteService) {}

  @Get()
  getRoute(
    @Req() req: FastifyRequest,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> {
    const query = queryOf(req.url);
    return this.answer(
      this.recent.get(query, () => parseRouteQuery(query, 'rest')),
      requestId,
      reply,
    );
  }

  @Post()
  @HttpCode(200)
  postRoute(
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> | object {
    if (queryOf(req.url) !== '')
      return this.badRequest(
        reply,
        'query parameters are not accepted on POST /route; send them in the JSON body',
      );
    // A body of another type is refused by Fastify (415) before this; this catches none at all.
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return this.badRequest(reply, 'Content-Type must be application/json', 415);
    return this.answer(parseRouteBody(body), requestId, reply);
  }

  /**
   * The body is serialised once; exactly that text is journalled (hashed) and sent, as its UTF-8
   * bytes: Fastify and Node then write the buffer as it is, instead of prepending the headers to
   * a copy of the 15 KB string and encoding it again (fewer young-generation collections).
   */
  private async answer(
    parsed: ParamsParse,
    requestId: string,
    reply: FastifyReply,
  ): Promise<Buffer | object> {
    if (!parsed.ok) {
      void reply.status(parsed.status);
      return { error: parsed.error };
    }
    const answer = await this.routes.quote(parsed.params, requestId, parsed.asOf);
    void reply.status(answer.status);
    if (!answer.ok) return { error: answer.error };
    void reply.header('content-type', 'application/json; charset=utf-8');
    if (answer.receipt !== undefined) void reply.header('x-quote-receipt', answer.receipt);
    return answer.body;
  }

  private badRequest(reply: FastifyReply, error: string, status: 400 | 415 = 400): object {
    void reply.status(status);
    return { error };
  }
}
