import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '@app/config';
import { inFlightResponse, reset } from './answers';
import { MAX_HEADER_BYTES } from './client-errors';
import { ConnectionBudget } from './connection-budget';
import { pathOf, STREAM_PATH, type FrontDoor, type RequestHandler } from './front-door';
import { Upgrades } from './upgrades';

/** How often Node checks the headers and request timeouts (they fire up to this much late). */
const TIMEOUT_CHECK_MS = 500;

/** The HTTP server and the parts of it bootstrap wires to Nest once Nest exists. */
export interface HttpServerParts {
  readonly server: Server;
  readonly upgrades: Upgrades;
  readonly budget: ConnectionBudget;
}

/**
 * The Node HTTP server under Fastify (Fastify's `serverFactory`): every request passes the front
 * door before Fastify's router; upgrades, CONNECT, malformed HTTP and timeouts are answered through
 * the same gate; connections are budgeted per address and in all when accepted; and the headers,
 * request, keep-alive and send timeouts close what a client leaves hanging. Malformed HTTP and
 * the timeouts' 408s are answered by `clientErrorHandler`, which Fastify installs.
 */
export function createHttpServer(
  handler: RequestHandler,
  front: FrontDoor,
  limits: HttpLimits,
): HttpServerParts {
  const options: ServerOptions & { shouldUpgradeCallback?: (req: IncomingMessage) => boolean } = {
    // The front door answers a missing Host with a JSON body (Node's own 400 has none).
    requireHostHeader: false,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Node 24.9 and later (the image's Node 26): only the stream's path is taken as an upgrade, any
    // other request with upgrade headers is a plain request. Those Nodes hand an upgraded
    // request's body to `req`, no longer in `head`, so replaying it (./upgrades.ts, which Node 20
    // still needs: it ignores this option) would lose a POST's body.
    shouldUpgradeCallback: (req) => pathOf(req.url ?? '') === STREAM_PATH,
  };
  const server = createServer(options, (req, res) => front.handle(req, res, handler));
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on('checkContinue', (req, res) => front.handle(req, res, handler, true));
  // An expectation other than 100-continue is ignored and the request answered (RFC 9110 10.1.1 allows it).
  server.on('checkExpectation', (req, res) => front.handle(req, res, handler));
  // Inactivity on a connection: idle keep-alive sockets and clients that stopped reading an
  // answer are closed; a request whose answer is still being computed is left alone, and so is a
  // connection still waiting for its first request (the headers timeout answers it with a 408).
  // Given up on, a connection is reset: the kernel drops what the client never read (a finished
  // answer can still sit in the kernel's buffers of a client that stopped reading).
  server.timeout = limits.sendTimeoutMs;
  server.on('timeout', (socket: Socket) => {
    const res = inFlightResponse(socket);
    if (res === undefined ? front.hasServed(socket) : socket.writableLength > 0) reset(socket);
  });
  const budget = new ConnectionBudget(limits, front);
  const upgrades = new Upgrades(front, (socket) => budget.streamOpened(socket));
  upgrades.install(server);
  budget.install(server);
  return { server, upgrades, budget };
}
