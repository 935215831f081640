import type { FastifyInstance } from 'fastify';
import { REQUEST_LIMITS, decodeUtf8Body, jsonCharsetProblem, parseStrictJson } from '@app/request';

/**
 * JSON is the only body the server reads: Fastify's other parsers (text/plain) are removed, so
 * any other media type is 415, and so is a charset other than UTF-8 (RFC 8259 8.1). The bytes
 * are decoded strictly: invalid UTF-8 is a 400 naming the first bad byte (Fastify's string
 * decoding would replace it and then report a length that does not match Content-Length). JSON
 * bodies go through the request lib's strict parser instead of JSON.parse: a key repeated in one
 * object is a 400 (as a repeated query parameter is), prototype keys are refused, nesting and key
 * counts are capped, and the work is one linear pass over at most `bodyLimit` bytes.
 */
export function installJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    const charset = jsonCharsetProblem(req.headers['content-type']);
    if (charset !== null) return done(Object.assign(new Error(charset), { statusCode: 415 }), undefined);
    const text = decodeUtf8Body(body as Buffer);
    if (!text.ok) return done(Object.assign(new Error(text.error), { statusCode: 400 }), undefined);
    const parsed = parseStrictJson(text.text, {
      depth: REQUEST_LIMITS.jsonDepth,
      keys: REQUEST_LIMITS.jsonKeys,
    });
    if (parsed.ok) done(null, parsed.value);
    else done(Object.assign(new Error(parsed.error), { statusCode: 400 }), undefined);
  });
}
