import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { WebSocketServer } from 'ws';
import { writeRawError, type AnswerHeaders } from '../http/answers';
import type { Upgrades } from '../http/upgrades';
import { STREAM_SOCKET_OPTIONS, StreamSocket } from './stream-socket';

const noop = (): void => undefined;

/**
 * Nest's WsAdapter, narrowed to the one-way stream: upgrades reach the ws server only through the
 * HTTP layer's gate and handshake checks (http/upgrades.ts), never through a listener of Nest's
 * own; sockets are StreamSockets with a small maxPayload; Nest's message handlers (which would
 * JSON-parse every client message) are never bound; client errors are not logged (each is
 * answered with a close, and logging them would let any client fill the logs).
 *
 * The ws server is made here from the project's own `ws`, not by Nest's adapter: @nestjs/platform-ws
 * pins an older ws, whose server would build StreamSockets with its own options (it knows nothing
 * of the newer socket's limits, which then default to none).
 */
export class GatedWsAdapter extends WsAdapter {
  private readonly upgradeHeaders = new WeakMap<IncomingMessage, AnswerHeaders>();

  constructor(
    app: INestApplicationContext,
    private readonly upgrades: Upgrades,
  ) {
    super(app);
  }

  override create(port: number, options?: { path?: string }): WebSocketServer {
    const server = new WebSocketServer({ noServer: true, WebSocket: StreamSocket, ...STREAM_SOCKET_OPTIONS });
    this.bindErrorHandler(server);
    this.ensureHttpServerExists(port, this.httpServer as Server | undefined);
    this.addWsServerToRegistry(server, port, options?.path ?? '/');
    server.on('headers', (headers: string[], req: IncomingMessage) => {
      for (const [name, value] of Object.entries(this.upgradeHeaders.get(req) ?? {}))
        headers.push(`${name}: ${value}`);
    });
    // What ws still refuses after the HTTP layer's checks (a malformed Sec-WebSocket-Protocol).
    server.on('wsClientError', (err: Error, socket: Duplex, req: IncomingMessage) =>
      writeRawError(
        socket,
        400,
        `invalid WebSocket handshake: ${err.message}`,
        this.upgradeHeaders.get(req) ?? {},
      ),
    );
    this.upgrades.serveStream({
      accept: (req, socket, head, headers) => {
        this.upgradeHeaders.set(req, headers);
        server.handleUpgrade(req, socket, head, (ws) => server.emit('connection', ws, req));
      },
    });
    return server;
  }

  /** The HTTP layer dispatches upgrades (http/upgrades.ts): no listener of Nest's is bound. */
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
