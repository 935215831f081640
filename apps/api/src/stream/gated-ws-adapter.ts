import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { WebSocketServer } from 'ws';
import { writeRawError, type AnswerHeaders } from '../http/answers';
import type { Upgrades } from '../http/upgrades';
import { STREAM_CLOSE_TIMEOUT_MS, STREAM_MAX_CLIENT_MESSAGE_BYTES, StreamSocket } from './stream-socket';

const noop = (): void => undefined;

/**
 * Nest's WsAdapter, narrowed to the one-way stream: upgrades reach the ws server only through the
 * HTTP layer's gate and handshake checks (http/upgrades.ts), never through a listener of Nest's
 * own; sockets are StreamSockets with a small maxPayload; Nest's message handlers (which would
 * JSON-parse every client message) are never bound; client errors are not logged (each is
 * answered with a close, and logging them would let any client fill the logs).
 */
export class GatedWsAdapter extends WsAdapter {
  private readonly upgradeHeaders = new WeakMap<IncomingMessage, AnswerHeaders>();

  constructor(
    app: INestApplicationContext,
    private readonly upgrades: Upgrades,
  ) {
    super(app);
  }

  override create(port: number, options?: Record<string, unknown>): WebSocketServer {
    const server = super.create(port, {
      ...options,
      WebSocket: StreamSocket,
      maxPayload: STREAM_MAX_CLIENT_MESSAGE_BYTES,
      // Client text is never read, so it is not worth validating as UTF-8 either.
      skipUTF8Validation: true,
      perMessageDeflate: false,
      closeTimeout: STREAM_CLOSE_TIMEOUT_MS,
    }) as WebSocketServer;
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
