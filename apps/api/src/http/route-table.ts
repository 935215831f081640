import type { FastifyInstance } from 'fastify';

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
