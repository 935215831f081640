import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRouteQuery, queryOf } from '@app/request';
import { constraintCosts, solveWithProof, type RouteRequest } from '@app/routing';
import { RequestId } from '../edge/front-door';
import { RouteService, statusOf } from './route.service';

/**
 * GET /route/explain (an extension beyond the spec, docs/api.md): the /route answer plus the
 * walk-the-book proof of that very solve and the cost of each constraint, all on one snapshot.
 * Same parameters, parser, caps and gate as GET /route; the result is journalled like a /route
 * quote, so `replay quote` and `replay explain` reproduce it.
 */
@Controller('route/explain')
export class ExplainController {
  constructor(@Inject(RouteService) private readonly routes: RouteService) {}

  @Get()
  async explain(
    @Req() req: FastifyRequest,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> {
    const parsed = parseRouteQuery(queryOf(req.url), 'rest');
    if (!parsed.ok) {
      void reply.status(parsed.status);
      return { error: parsed.error };
    }
    const request: RouteRequest = { requestId, ...parsed.params };
    const snap = await this.routes.snapshot(request, parsed.asOf);
    if (!snap.ok) {
      void reply.status(snap.status);
      return { error: snap.error };
    }
    // The snapshot is the live cache: the proof, the counterfactuals and the result are computed in
    // this one synchronous turn, so no fold can land between them.
    const { result, proof } = solveWithProof(snap.input);
    const costs = constraintCosts(snap.input);
    const body = JSON.stringify(result);
    const refused = await this.routes.journalRest(request, parsed.asOf, result, snap.positions, body);
    if (refused !== null) {
      void reply.status(refused.status);
      return { error: refused.error };
    }
    void reply.status(statusOf(result));
    void reply.header('content-type', 'application/json; charset=utf-8');
    // `result` is the journalled text as it is: its SHA-256 is the journal record's responseSha256.
    const text = `{"result":${body},"proof":${JSON.stringify(proof)},"constraintCosts":${JSON.stringify(costs)}}`;
    return Buffer.from(text, 'utf8');
  }
}
