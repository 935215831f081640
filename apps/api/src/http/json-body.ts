import type { FastifyInstance } from 'fastify';
import { REQUEST_LIMITS, parseStrictJson } from '@app/request';

/**
 * JSON is the only body the server reads: Fastify's other parsers (text/plain) are removed, so
 * any other media type is 415. JSON bodies go through the request lib's strict parser instead of
 * JSON.parse: a key repeated in one object is a 400 (as a repeated query parameter is), prototype
 * keys are refused, nesting and key counts are capped, and the work is one linear pass over at
 * most `bodyLimit` bytes.
 */
export function installJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    const parsed = parseStrictJson(body as string, {
      depth: REQUEST_LIMITS.jsonDepth,
      keys: REQUEST_LIMITS.jsonKeys,
    });
    if (parsed.ok) done(null, parsed.value);
    else done(Object.assign(new Error(parsed.error), { statusCode: 400 }), undefined);
  });
}
