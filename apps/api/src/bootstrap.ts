import type { AddressInfo } from 'node:net';
import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiModule, type ApiDeps } from './api.module';
import { buildOpenApi, serveOpenApi } from './docs/openapi';
import { ErrorBodyFilter } from './http/error-body.filter';
import { installHttpHooks } from './http/http-hooks';
import { RequestGate } from './http/request-gate';
import { GatedWsAdapter } from './stream/gated-ws-adapter';
import { StreamHub, type StreamStats } from './stream/stream-hub';

/** POST /route body cap (clarifications 9). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface ApiServer {
  readonly app: NestFastifyApplication;
  /** The port actually bound (useful with --port 0). */
  readonly port: number;
  /** http://127.0.0.1:<port> (IPv4, since IPv6 clients are refused). */
  readonly url: string;
  streamStats(): StreamStats;
  close(): Promise<void>;
}

export interface ApiServerOptions extends ApiDeps {
  readonly logger?: false | LogLevel[];
}

/** Create the Nest application on Fastify, install the gate, the stream and the docs, and listen. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(options), adapter, {
    logger: options.logger ?? ['error', 'warn'],
  });
  const gate = app.get(RequestGate);
  const fastify = app.getHttpAdapter().getInstance();
  installHttpHooks(fastify, gate);
  app.useGlobalFilters(new ErrorBodyFilter());
  app.useWebSocketAdapter(new GatedWsAdapter(app, gate));
  serveOpenApi(fastify, buildOpenApi(app));
  await app.init();
  // '::' is dual-stack on Linux, so IPv6 clients reach the ipv4_only answer (clarifications 10).
  await app.listen(options.config.port, options.config.host);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const hub = app.get(StreamHub);
  return {
    app,
    port,
    url: `http://127.0.0.1:${port}`,
    streamStats: () => hub.stats(),
    close: () => app.close(),
  };
}
