import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { HttpLimits } from '@app/config';
import { GatedWsAdapter } from '../stream/gated-ws-adapter';
import { clientErrorHandler } from './client-errors';
import type { ConnectionStats } from './connection-budget';
import { ErrorBodyFilter, MAX_PARAM_CHARS } from './error-body.filter';
import { FrontDoor, type RequestHandler } from './front-door';
import { createHttpServer, type HttpServerParts } from './http-server';
import { installJsonBodyParser } from './json-body';
import { RequestGate } from './request-gate';
import { RouteTable } from './route-table';

/** Route handlers read the raw query string through @app/request; Fastify parses none. */
const NO_QUERY = Object.freeze(Object.create(null) as Record<string, string>);

/** The HTTP layer with its gate, before and after Nest exists. */
export interface GatedHttp {
  /** The Fastify adapter to create the Nest application on. */
  readonly adapter: FastifyAdapter;
  /** Once Nest created the application: bind the gate, the body parser, the error filter, the stream adapter. */
  wire(app: NestFastifyApplication): void;
  /** Open connections and those shed for newcomers (metrics). */
  connections(): ConnectionStats;
}

/**
 * Fastify on a server of ours (http-server.ts): every answer through one gate (front-door.ts),
 * Node's client errors and timeouts answered as JSON (client-errors.ts), routing failures and
 * unknown paths as `{error}` with 404/405 told apart (error-body.filter.ts), no query string
 * parsed by Fastify, and no 503 for requests that arrive while the server closes.
 */
export function gatedHttp(limits: HttpLimits, bodyLimit: number): GatedHttp {
  const front = new FrontDoor(bodyLimit);
  const routes = new RouteTable();
  const errors = new ErrorBodyFilter(routes, bodyLimit);
  let parts: HttpServerParts | null = null;
  const adapter = new FastifyAdapter({
    bodyLimit,
    serverFactory: (handler: RequestHandler) => (parts = createHttpServer(handler, front, limits)).server,
    clientErrorHandler: clientErrorHandler(front, limits),
    frameworkErrors: errors.frameworkError,
    // During shutdown a request on an open connection is still answered, not refused with 503.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_CHARS, querystringParser: () => NO_QUERY },
  });
  routes.watch(adapter.getInstance());
  adapter.getInstance().addHook('onRequest', errors.unroutedHook);
  return {
    adapter,
    connections: () => parts?.budget.stats() ?? { open: 0, shed: 0 },
    wire: (app) => {
      const server = parts;
      if (server === null) throw new Error('Fastify did not create its server through the serverFactory');
      front.bind(app.get(RequestGate));
      installJsonBodyParser(app.getHttpAdapter().getInstance(), bodyLimit);
      app.useGlobalFilters(errors);
      app.useWebSocketAdapter(new GatedWsAdapter(app, server.upgrades));
    },
  };
}
