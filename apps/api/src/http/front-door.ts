import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { REQUEST_LIMITS } from '@app/request';
import { sendError, type AnswerHeaders } from './answers';
import { withVerdict, type RequestGate } from './request-gate';

/** The one WebSocket endpoint (spec 4.3). */
export const STREAM_PATH = '/stream/route';

/** A request's way on once the front door let it through (Fastify's router). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Why the front door answers a request itself: status, message, extra headers. */
export interface Problem {
  readonly status: number;
  readonly error: string;
  readonly headers?: AnswerHeaders;
}

/** The path of a request target: the text before the first '?'. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

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
 */
export class FrontDoor {
  private gate: RequestGate | null = null;
  private readonly served = new WeakSet<Socket>();

  constructor(private readonly bodyLimit: number) {}

  /** The gate is Nest's; the server is created before Nest, and listens only after this. */
  bind(gate: RequestGate): void {
    this.gate = gate;
  }

  handle(req: IncomingMessage, res: ServerResponse, next: RequestHandler, expectsContinue = false): void {
    this.served.add(req.socket);
    withVerdict(this.judge(req), (verdict) => {
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
      if (verdict.refusal !== null) return sendError(res, verdict.refusal.status, verdict.refusal.error);
      const problem = this.problem(req, expectsContinue);
      if (problem !== null) return sendError(res, problem.status, problem.error, problem.headers);
      if (expectsContinue) res.writeContinue();
      next(req, res);
    });
  }

  /** The gate's verdict on a request whose headers parsed. */
  judge(req: IncomingMessage): ReturnType<RequestGate['judge']> {
    if (this.gate === null) throw new Error('FrontDoor.bind(gate) was not called before listening');
    return this.gate.judge(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      req.headers['x-request-id'],
    );
  }

  /** The raw-path gate (no parsed request): the socket's peer, a minted request id. */
  judgePeer(peer: string | undefined): ReturnType<RequestGate['judge']> {
    if (this.gate === null) throw new Error('FrontDoor.bind(gate) was not called before listening');
    return this.gate.judge(peer, undefined, undefined);
  }

  /** Whether a request has come in on `socket` (an idle one is then between keep-alive requests). */
  hasServed(socket: Socket): boolean {
    return this.served.has(socket);
  }

  /** Whether `peer` is a trusted proxy (its connections are not budgeted per address). */
  isTrustedProxy(peer: string | undefined): boolean {
    return this.gate?.isTrustedProxy(peer) ?? false;
  }

  private problem(req: IncomingMessage, expectsContinue: boolean): Problem | null {
    const head = headProblem(req);
    if (head !== null) return head;
    const url = req.url ?? '';
    const target = targetProblem(url);
    if (target !== null) return target;
    if (pathOf(url) === STREAM_PATH) {
      if (req.method === 'GET' || req.method === 'HEAD')
        return {
          status: 426,
          error: `${STREAM_PATH} is a WebSocket endpoint: open it with a WebSocket handshake`,
          headers: { upgrade: 'websocket' },
        };
      return {
        status: 405,
        error: `method ${req.method} is not allowed on ${STREAM_PATH}`,
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
