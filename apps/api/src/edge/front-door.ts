import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { REQUEST_LIMITS, pathOf } from '@app/request';
import { sendError, type AnswerHeaders } from './answers';
import { withVerdict, type RequestGate } from './request-gate';

/** The one-route WebSocket endpoint (spec 4.3). */
export const STREAM_PATH = '/stream/route';
/** The multiplexed WebSocket endpoint (docs/api.md "Stream protocol v2"). */
export const STREAM_V2_PATH = '/stream';
/** The subprotocol STREAM_V2_PATH speaks, and the only one it selects. */
export const STREAM_V2_PROTOCOL = 'routestream.v2';

/** Whether `path` is one of the WebSocket endpoints. */
export function isStreamPath(path: string): boolean {
  return path === STREAM_PATH || path === STREAM_V2_PATH;
}

/** A request's way on once the front door let it through (Fastify's router). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Why the front door answers a request itself: status, message, extra headers. */
export interface Problem {
  readonly status: number;
  readonly error: string;
  readonly headers?: AnswerHeaders;
}

/** Each admitted request's id (the gate's x-request-id), for @RequestId(). */
const requestIds = new WeakMap<IncomingMessage, string>();

/**
 * A route handler's parameter: the request's id as the gate gave it (the caller's x-request-id
 * when valid, else a minted UUID), the same the answer's x-request-id header carries.
 */
export const RequestId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>().raw;
  const id = requestIds.get(req);
  // Every request Fastify routes came through the front door: no id is a wiring fault.
  if (id === undefined) throw new Error('a request reached a route without passing the front door');
  return id;
});

/**
 * A request target every route would refuse, checked before any router or decoder reads it (so
 * none of them works on more than these caps): a path over REQUEST_LIMITS.pathChars or a query
 * string over REQUEST_LIMITS.queryChars is 414.
 */
export function targetProblem(url: string): Problem | null {
  const q = url.indexOf('?');
  if ((q < 0 ? url.length : q) > REQUEST_LIMITS.pathChars)
    return { status: 414, error: `the path is longer than ${REQUEST_LIMITS.pathChars} characters` };
  if (q >= 0 && url.length - q - 1 > REQUEST_LIMITS.queryChars)
    return {
      status: 414,
      error: `the query string is longer than ${REQUEST_LIMITS.queryChars} characters`,
    };
  return null;
}

/**
 * What is wrong with a request's head whatever its target (RFC 9112): an HTTP version other than
 * 1.x (Node's parser reads `HTTP/2.0` and the like as a request; this server speaks HTTP/1.x
 * only), a missing Host in HTTP/1.1 (Node's own check answers it with no body), or more than one
 * Host (3.2: a 400, whichever the version).
 */
export function headProblem(req: IncomingMessage): Problem | null {
  if (req.httpVersionMajor !== 1)
    return {
      status: 400,
      error: `HTTP/${req.httpVersionMajor}.${req.httpVersionMinor} is not supported: send HTTP/1.1`,
    };
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return { status: 400, error: 'the Host header must appear once' };
  if (req.httpVersionMinor === 1 && hosts === 0)
    return { status: 400, error: 'the Host header is required in HTTP/1.1' };
  return null;
}

/**
 * Every HTTP request enters here before Fastify sees it (docs/api.md "Order of checks"): the gate
 * (IPv4 rule, counting, rate limit, the headers every answer carries), then what no route could
 * accept: a missing Host, an over-long target, a plain request to the stream's path, a body
 * announced with `Expect: 100-continue` over the body cap (refused before the client sends it).
 * What passes goes on to Fastify with its request id, which routes read with @RequestId().
 */
export class FrontDoor {
  private readonly served = new WeakSet<Socket>();

  constructor(
    private readonly gate: RequestGate,
    private readonly bodyLimit: number,
  ) {}

  /** Take the server's requests (plain, `Expect: 100-continue`, other expectations) and hand them on to `next`. */
  install(server: Server, next: RequestHandler): void {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res, next));
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) =>
      this.handle(req, res, next, true),
    );
    // An expectation other than 100-continue is ignored and the request answered (RFC 9110 10.1.1 allows it).
    server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res, next));
  }

  /** Whether a request has come in on `socket` (an idle one is then between keep-alive requests). */
  hasServed(socket: Socket): boolean {
    return this.served.has(socket);
  }

  private handle(
    req: IncomingMessage,
    res: ServerResponse,
    next: RequestHandler,
    expectsContinue = false,
  ): void {
    this.served.add(req.socket);
    withVerdict(this.gate.judgeRequest(req), (verdict) => {
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
      if (verdict.refusal !== null) return sendError(res, verdict.refusal.status, verdict.refusal.error);
      const problem = this.problem(req, expectsContinue);
      if (problem !== null) return sendError(res, problem.status, problem.error, problem.headers);
      if (expectsContinue) res.writeContinue();
      requestIds.set(req, verdict.requestId);
      next(req, res);
    });
  }

  private problem(req: IncomingMessage, expectsContinue: boolean): Problem | null {
    const head = headProblem(req);
    if (head !== null) return head;
    const url = req.url ?? '';
    const target = targetProblem(url);
    if (target !== null) return target;
    const path = pathOf(url);
    if (isStreamPath(path)) {
      if (req.method === 'GET' || req.method === 'HEAD')
        return {
          status: 426,
          error: `${path} is a WebSocket endpoint: open it with a WebSocket handshake`,
          headers: { upgrade: 'websocket' },
        };
      return {
        status: 405,
        error: `method ${req.method} is not allowed on ${path}`,
        headers: { allow: 'GET' },
      };
    }
    if (expectsContinue && Number(req.headers['content-length'] ?? 0) > this.bodyLimit)
      return {
        status: 413,
        error: `the request body is larger than ${this.bodyLimit} bytes`,
        headers: { connection: 'close' },
      };
    return null;
  }
}
