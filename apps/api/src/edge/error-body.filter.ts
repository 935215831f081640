import {
  Catch,
  HttpException,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathOf, shown } from '@app/request';

/**
 * Fastify's own failures before a handler runs. Nest hands those of the body parser over as
 * HttpExceptions (status and Fastify's message, without the code), so they are known by status;
 * routing failures reach `frameworkError` with their code.
 */
const BY_STATUS: Readonly<Record<number, (bodyLimit: number) => string>> = {
  413: (limit) => `the request body is larger than ${limit} bytes`,
  415: () => 'Content-Type must be application/json',
};
const BY_CODE: Readonly<Record<string, () => [number, string]>> = {
  FST_ERR_BAD_URL: () => [400, 'the path has a malformed percent-escape'],
  FST_ERR_MAX_PARAM_LENGTH: () => [414, `a path segment is longer than ${MAX_PARAM_CHARS} characters`],
};

/** Fastify's maxParamLength: characters of one path parameter (exchange id, symbol). */
export const MAX_PARAM_CHARS = 100;

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
}

/** Methods in the order an Allow header lists them. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The method and path pattern of every route the server registers, so a request the router did
 * not match can be told apart: a path no route has (404) from a method the path does not take
 * (405 with Allow). Patterns are Fastify's: `:name` matches one non-empty segment, `*` the rest.
 */
export class RouteTable {
  private readonly routes: Route[] = [];

  /** Record every route registered on `fastify` from now on (install before Nest registers its routes). */
  watch(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) this.add(method, route.url ?? route.path);
    });
  }

  add(method: string, pattern: string): void {
    this.routes.push({ method: method.toUpperCase(), segments: pattern.split('/') });
    // Fastify answers HEAD wherever it answers GET.
    if (method.toUpperCase() === 'GET') this.routes.push({ method: 'HEAD', segments: pattern.split('/') });
  }

  /** The methods of the routes whose pattern matches `path` (raw, before '?'), in Allow order. */
  allowed(path: string): string[] {
    const segments = path.split('/');
    const methods = new Set<string>();
    for (const route of this.routes) if (matches(route.segments, segments)) methods.add(route.method);
    return [...methods].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  }
}

function rank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i < 0 ? METHOD_ORDER.length : i;
}

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p === '*') return true;
    const s = path[i];
    if (s === undefined) return false;
    if (p.startsWith(':') ? s === '' : p !== decoded(s)) return false;
  }
  return pattern.length === path.length;
}

/** A path segment as the router compares it with a static one: percent-escapes decoded (`/r%6Fute` is /route). */
function decoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Every error answers `{error: string}` (spec 7), never a reason phrase and never Nest's or
 * Fastify's own shapes: unknown paths (404), known paths with another method (405 with Allow),
 * Fastify's failures before the handler (413, 415, bad percent-encoding, an over-long path
 * parameter). Messages quote at most a short prefix of what the client sent.
 */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteTable,
    private readonly bodyLimit: number,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    const [status, message, allow] = this.describe(exception, req);
    if (allow !== undefined) void reply.header('allow', allow);
    void reply.status(status).send({ error: message });
  }

  /** Fastify's `frameworkErrors` (routing failures: bad percent-encoding, over-long parameters). */
  readonly frameworkError = (error: unknown, _req: FastifyRequest, reply: FastifyReply): void => {
    const [status, message] = this.describe(error, null);
    void reply.status(status).send({ error: message });
  };

  private describe(exception: unknown, req: FastifyRequest | null): [number, string, string?] {
    if (exception instanceof NotFoundException && req?.is404 === true) return this.unrouted(req);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Our body parser's 415 names the charset; Fastify's own says only "Unsupported Media Type".
      if (status === 415 && exception.message.startsWith('Content-Type charset'))
        return [415, exception.message];
      return [status, BY_STATUS[status]?.(this.bodyLimit) ?? exception.message];
    }
    const code = (exception as { code?: unknown } | null)?.code;
    const known = typeof code === 'string' ? BY_CODE[code] : undefined;
    if (known !== undefined) return known();
    if (isClientError(exception)) return [exception.statusCode, exception.message];
    return [500, 'internal error'];
  }

  /**
   * Fastify's `onRequest` hook: a request the router matched to no route is answered here, before
   * Fastify reads its body, so an unknown path is 404 and a known path's other method 405 with
   * Allow whatever the body (no 400 for a QUERY without Content-Type, no 415 or 413 first).
   */
  readonly unroutedHook = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!req.is404) return done();
    const [status, message, allow] = this.unrouted(req);
    if (allow !== undefined) void reply.header('allow', allow);
    void reply.status(status).send({ error: message });
  };

  /** The router matched nothing: 405 with Allow if the path takes other methods, else 404. */
  private unrouted(req: FastifyRequest): [number, string, string?] {
    const path = pathOf(req.raw.url ?? '');
    const allowed = this.routes.allowed(path);
    if (allowed.length > 0)
      return [405, `method ${req.method} is not allowed on ${shown(path)}`, allowed.join(', ')];
    return [404, `no endpoint at ${shown(path)}`];
  }
}

function isClientError(e: unknown): e is { statusCode: number; message: string } {
  if (typeof e !== 'object' || e === null) return false;
  const { statusCode, message } = e as { statusCode?: unknown; message?: unknown };
  return (
    typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 && typeof message === 'string'
  );
}
