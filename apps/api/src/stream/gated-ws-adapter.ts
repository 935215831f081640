import type { Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { WebSocketServer } from 'ws';

const noop = (): void => undefined;

/**
 * Nest's WsAdapter, narrowed to the one-way stream: the gateway is bound to the stream's ws
 * server that the edge made before Nest (edge/upgrades.ts), which upgrades reach only through the
 * edge's gate and handshake checks, never through a listener of Nest's own; its sockets are
 * StreamSockets with a small maxPayload (stream-socket.ts); Nest's message handlers (which would
 * JSON-parse every client message) are never bound; client errors are not logged (each is
 * answered with a close, and logging them would let any client fill the logs).
 *
 * That server is made from the project's own `ws`, not by Nest's adapter: @nestjs/platform-ws
 * pins an older ws, whose server would build StreamSockets with its own options (it knows nothing
 * of the newer socket's limits, which then default to none).
 */
export class GatedWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly streams: WebSocketServer,
  ) {
    super(app);
  }

  override create(port: number, options?: { path?: string }): WebSocketServer {
    this.bindErrorHandler(this.streams);
    this.ensureHttpServerExists(port, this.httpServer as Server | undefined);
    this.addWsServerToRegistry(this.streams, port, options?.path ?? '/');
    return this.streams;
  }

  /** The edge dispatches upgrades (edge/upgrades.ts): no listener of Nest's is bound. */
  protected override ensureHttpServerExists(port: number, httpServer?: Server): Server | undefined {
    if (httpServer !== undefined) this.httpServersRegistry.set(port, httpServer);
    return httpServer;
  }

  /** The stream takes no client messages: Nest's JSON-parsing message handlers are never bound. */
  override bindMessageHandlers(): void {}

  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('error', noop);
    return server;
  }
}
