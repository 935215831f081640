import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { routeBodySchema, routeQueryParameters } from '@app/request';
import { renderDocsPage } from './docs-page';

/** Generate the OpenAPI document from the controllers and DTOs. */
export function buildOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Route quoting service')
    .setDescription(
      'Quotes conversions between two assets over cached level-2 order books (beta). Every endpoint is public, IPv4-only ' +
        'and shares one per-IP rate limit. The WebSocket GET /stream/route takes the GET /route parameters (includeQuotes ' +
        'defaults to false, no balances) and pushes a RouteResult whenever a market the route depends on moves.',
    )
    .setVersion('beta')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // The route parameters and body come from the request parser's own table (libs/request).
  const route = document.paths['/route'];
  if (route?.get !== undefined) route.get.parameters = routeQueryParameters('rest') as never;
  if (route?.post !== undefined)
    route.post.requestBody = {
      required: true,
      content: { 'application/json': { schema: routeBodySchema() } },
    };
  return document;
}

/** Serve the document at /openapi.json and a self-contained page at /docs (one request, so the rate limit cannot break it). */
export function serveOpenApi(fastify: FastifyInstance, document: OpenAPIObject): void {
  const json = JSON.stringify(document);
  const page = renderDocsPage(document);
  fastify.get('/openapi.json', (_req, reply) => reply.type('application/json').send(json));
  fastify.get('/docs', (_req, reply) => reply.type('text/html; charset=utf-8').send(page));
}
