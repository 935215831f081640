import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildAsyncApiDocument } from './asyncapi';
import { renderDocsPage } from './docs-page';
import { renderExplorerPage } from '../explorer/explorer-page';
import { buildOpenApiDocument } from './openapi';
import { pageSecurityHeaders } from './page-headers';

/**
 * GET /openapi.json, /asyncapi.json, /docs and /explorer. Each is built once at startup and sent as
 * it is, with an ETag and an hour of caching, so a reader reloading the page does not spend the
 * rate limit on it again. The HTML pages carry the security headers of ./page-headers.ts.
 */
export function serveDocs(fastify: FastifyInstance): void {
  const openapi = buildOpenApiDocument();
  const asyncapi = buildAsyncApiDocument();
  fixed(fastify, '/openapi.json', 'application/json; charset=utf-8', JSON.stringify(openapi));
  fixed(fastify, '/asyncapi.json', 'application/json; charset=utf-8', JSON.stringify(asyncapi));
  fixed(fastify, '/docs', 'text/html; charset=utf-8', renderDocsPage(openapi, asyncapi));
  fixed(fastify, '/explorer', 'text/html; charset=utf-8', renderExplorerPage());
}

function fixed(fastify: FastifyInstance, path: string, type: string, text: string): void {
  const body = Buffer.from(text, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const security = type.startsWith('text/html') ? pageSecurityHeaders(text) : {};
  fastify.get(path, (req: FastifyRequest, reply: FastifyReply) => {
    void reply.headers(security);
    void reply.header('etag', etag).header('cache-control', 'public, max-age=3600').type(type);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(body);
  });
}
