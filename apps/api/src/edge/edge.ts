import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { WebSocketServer, ServerOptions as StreamServerOptions } from 'ws';
import type { HttpLimits } from '@app/config';
import { REQUEST_LIMITS, decodeUtf8Body, jsonCharsetProblem, parseStrictJson, pathOf } from '@app/request';
import type { RateLimiter } from '../limits/limits';
import { clientErrorHandler, MAX_HEADER_BYTES, reset } from './answers';
import { ConnectionBudget, type ConnectionStats } from './connection-budget';
import { ErrorBodyFilter, MAX_PARAM_CHARS, RouteTable } from './error-body.filter';
import { FrontDoor, isStreamPath, type RequestHandler } from './front-door';
import { inFlightResponse } from './node-internals';
import { RequestGate } from './request-gate';
import { Upgrades } from './upgrades';

/** How often Node checks the headers and request timeouts (they fire up to this much late). */
const TIMEOUT_CHECK_MS = 500;
/** Route handlers read the raw query string through @app/request; Fastify parses none. */
const NO_QUERY = Object.freeze(Object.create(null) as Record<string, string>);

/** What the edge is made of, all known before Nest starts. */
export interface EdgeSettings {
  /** Timeouts and connection budgets (docs/api.md "Limits and timeouts"). */
  readonly http: HttpLimits;
  /** TRUSTED_PROXY: peers whose x-forwarded-for names the client. */
  readonly trustedProxies: readonly string[];
  /** The per-address rate limit (in this process, or shared through Redis). */
  readonly rate: RateLimiter;
  /** POST /route's body cap in bytes (clarifications 9). */
  readonly bodyLimit: number;
  /** The stream's WebSocket server options (its socket class and limits: stream/stream-socket.ts). */
  readonly stream: StreamServerOptions;
}

/** The edge as the Nest application takes it: values, made before Nest, that Nest never hands back. */
export interface Edge {
  /** The Fastify adapter to create the Nest application on (its server is the edge's). */
  readonly adapter: FastifyAdapter;
  /** The gate (a Nest provider by value: the stream hub asks it for client addresses; metrics read its refusals). */
  readonly gate: RequestGate;
  /** The `{error}` body of Nest's and Fastify's failures: Nest's global exception filter. */
  readonly errors: ErrorBodyFilter;
  /** The stream's WebSocket server: Nest's WebSocket adapter binds the gateway to it. */
  readonly streams: WebSocketServer;
  /** Open connections and those shed for newcomers (metrics). */
  connections(): ConnectionStats;
}

/**
 * The HTTP edge (docs/api.md "Order of checks"): a Node server of ours under Fastify, on which
 * every connection is budgeted when accepted (connection-budget.ts), every request passes the
 * front door and its gate before Fastify's router (front-door.ts, request-gate.ts), upgrades and
 * CONNECT are answered through the same gate (upgrades.ts), Node's client errors and timeouts
 * are answered as JSON (answers.ts), and unknown paths and Fastify's own failures as `{error}`
 * (error-body.filter.ts). Fastify parses no query string, JSON is the only body it reads, and
 * requests that arrive while the server closes are still answered (no 503).
 */
export function createEdge(s: EdgeSettings): Edge {
  const gate = new RequestGate(s.trustedProxies, s.rate);
  const door = new FrontDoor(gate, s.bodyLimit);
  const budget = new ConnectionBudget(s.http, gate);
  const upgrades = new Upgrades(gate, s.stream, (socket) => budget.streamOpened(socket));
  const routes = new RouteTable();
  const errors = new ErrorBodyFilter(routes, s.bodyLimit);
  const adapter = new FastifyAdapter({
    bodyLimit: s.bodyLimit,
    serverFactory: (handler: RequestHandler) => {
      const server = createHttpServer(s.http, door);
      door.install(server, handler);
      upgrades.install(server);
      budget.install(server);
      return server;
    },
    clientErrorHandler: clientErrorHandler(gate, s.http),
    frameworkErrors: errors.frameworkError,
    // During shutdown a request on an open connection is still answered, not refused with 503.
    return503OnClosing: false,
    routerOptions: { maxParamLength: MAX_PARAM_CHARS, querystringParser: () => NO_QUERY },
  });
  const fastify = adapter.getInstance();
  routes.watch(fastify);
  fastify.addHook('onRequest', errors.unroutedHook);
  installJsonBodyParser(fastify, s.bodyLimit);
  return { adapter, gate, errors, streams: upgrades.streams, connections: () => budget.stats() };
}

/**
 * The Node HTTP server under Fastify: the headers, request, keep-alive and send timeouts close
 * what a client leaves hanging (their 408s are answered by clientErrorHandler, which Fastify
 * installs), with the header cap the docs state.
 */
function createHttpServer(limits: HttpLimits, door: FrontDoor): Server {
  const options: ServerOptions & { shouldUpgradeCallback?: (req: IncomingMessage) => boolean } = {
    // The front door answers a missing Host with a JSON body (Node's own 400 has none).
    requireHostHeader: false,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Only the streams' paths are taken as an upgrade; any other request with upgrade headers is a
    // plain request. Nodes without this option (20) need node20-upgrade-replay.ts instead.
    shouldUpgradeCallback: (req) => isStreamPath(pathOf(req.url ?? '')),
  };
  const server = createServer(options);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Inactivity on a connection: idle keep-alive sockets and clients that stopped reading an
  // answer are closed; a request whose answer is still being computed is left alone, and so is a
  // connection still waiting for its first request (the headers timeout answers it with a 408).
  // Given up on, a connection is reset: the kernel drops what the client never read (a finished
  // answer can still sit in the kernel's buffers of a client that stopped reading).
  server.timeout = limits.sendTimeoutMs;
  server.on('timeout', (socket: Socket) => {
    const res = inFlightResponse(socket);
    if (res === undefined ? door.hasServed(socket) : socket.writableLength > 0) reset(socket);
  });
  return server;
}

/**
 * JSON is the only body the server reads: Fastify's other parsers (text/plain) are removed, so
 * any other media type is 415, and so is a charset other than UTF-8 (RFC 8259 8.1). The bytes
 * are decoded strictly: invalid UTF-8 is a 400 naming the first bad byte (Fastify's string
 * decoding would replace it and then report a length that does not match Content-Length). JSON
 * bodies go through the request lib's strict parser instead of JSON.parse: a key repeated in one
 * object is a 400 (as a repeated query parameter is), prototype keys are refused, nesting and key
 * counts are capped, and the work is one linear pass over at most `bodyLimit` bytes.
 */
function installJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
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
