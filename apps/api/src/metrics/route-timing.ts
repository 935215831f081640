import type { FastifyInstance } from 'fastify';
import type { ApiMetrics } from './api-metrics';

/**
 * Counts and times every GET/POST /route answer, refusals included (a 429 from the gate still
 * reaches onResponse), with Fastify's own measure of the time from the request to the response.
 */
export function installRouteTiming(fastify: FastifyInstance, metrics: ApiMetrics): void {
  fastify.addHook('onResponse', (req, reply, done) => {
    const url = req.url;
    const q = url.indexOf('?');
    if ((q < 0 ? url : url.slice(0, q)) === '/route')
      metrics.observeRoute(req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
