import type { FastifyInstance } from 'fastify';
import { IPV4_ONLY, RATE_LIMITED, type RequestGate } from './request-gate';
import { requestIdFrom } from './request-id';

/**
 * Fastify hooks that run before routing, body parsing and Nest: the IPv4 rule (403), the rate
 * limit (429, headers on every response), and the x-request-id echo.
 */
export function installHttpHooks(fastify: FastifyInstance, gate: RequestGate): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const decision = gate.admit(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    if (decision.kind === 'refused') {
      void reply.code(403).send(IPV4_ONLY);
      return;
    }
    void reply.headers(decision.headers);
    void reply.header('x-request-id', requestIdFrom(req.headers['x-request-id']));
    if (decision.kind === 'limited') {
      void reply.code(429).send(RATE_LIMITED);
      return;
    }
    done();
  });
}
