import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import { Logger } from '@nestjs/common';
import type { RateLimiter } from '../limits/limits';
import type { RateDecision } from '../limits/rate-limiter';

/** The gate's own refusal: 403 ipv4_only or 429 over the rate limit. */
export interface Refusal {
  readonly status: 403 | 429;
  readonly error: string;
}

/** What the gate decided for one answer the server is about to give. */
export interface Verdict {
  /** The answer's x-request-id: the caller's when valid, else a minted UUID (also in `headers`). */
  readonly requestId: string;
  /** x-request-id always; the x-ratelimit-* headers when counted; retry-after when limited. */
  readonly headers: Readonly<Record<string, string>>;
  /** The answer the gate gives instead, or null when the request may go on. */
  readonly refusal: Refusal | null;
}

/**
 * The first checks of every answer the server gives (clarifications 9-10; docs/api.md "Order of
 * checks"): the IPv4 rule (403, not counted), then the per-address fixed-window rate limit, and the
 * headers every answer carries. Requests, stream upgrades, malformed HTTP, timeouts and refused
 * connections all pass here, so each is counted once and answered alike. Built from the config
 * before Nest; Nest gets it as a value (the stream hub asks it for client addresses).
 */
export class RequestGate {
  private readonly trusted: ReadonlySet<string>;
  /** Requests and upgrades refused so far, by rule (metrics). */
  readonly refusals = { ipv4Only: 0, rateLimited: 0 };

  constructor(
    trustedProxies: readonly string[],
    private readonly limiter: RateLimiter,
  ) {
    this.trusted = new Set(trustedProxies);
  }

  /**
   * Judge one answer: `forwardedFor` and `requestId` are the request's headers when it has any
   * (undefined for what failed before its headers parsed: a fresh id is minted then). The verdict
   * is immediate in one process, a promise when the limit is shared through Redis (withVerdict).
   */
  judge(
    peer: string | undefined,
    forwardedFor: string | string[] | undefined,
    requestId: string | string[] | undefined,
  ): Verdict | Promise<Verdict> {
    const id = requestIdFrom(requestId);
    const headers: Record<string, string> = { 'x-request-id': id };
    const address = clientAddress(peer, forwardedFor, this.trusted);
    if (address === null) {
      this.refusals.ipv4Only++;
      return { requestId: id, headers, refusal: IPV4_ONLY };
    }
    // performance.now() is monotonic: a wall-clock step must not reopen or stretch windows.
    const d = this.limiter.hit(address, performance.now());
    return d instanceof Promise ? d.then((x) => this.decide(id, headers, x)) : this.decide(id, headers, d);
  }

  /** The verdict on a request whose headers parsed. */
  judgeRequest(req: IncomingMessage): Verdict | Promise<Verdict> {
    return this.judge(req.socket.remoteAddress, req.headers['x-forwarded-for'], req.headers['x-request-id']);
  }

  /** The verdict on what has no parsed request (a refused connection, malformed HTTP): the socket's peer. */
  judgePeer(peer: string | undefined): Verdict | Promise<Verdict> {
    return this.judge(peer, undefined, undefined);
  }

  private decide(requestId: string, headers: Record<string, string>, d: RateDecision): Verdict {
    headers['x-ratelimit-limit'] = String(d.limit);
    headers['x-ratelimit-remaining'] = String(d.remaining);
    headers['x-ratelimit-reset'] = String(d.resetSec);
    if (d.allowed) return { requestId, headers, refusal: null };
    headers['retry-after'] = String(d.resetSec);
    this.refusals.rateLimited++;
    return { requestId, headers, refusal: RATE_LIMITED };
  }

  /** Client address of an admitted connection (same rule as judge, without counting). */
  addressOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string | null {
    return clientAddress(peer, forwardedFor, this.trusted);
  }

  /** Whether `peer` is a configured trusted proxy (its connections carry many clients). */
  isTrustedProxy(peer: string | undefined): boolean {
    return this.trusted.size > 0 && this.trusted.has(unmapped(peer ?? ''));
  }
}

/** Go on with a verdict: at once when it is one, when it settles when it is a promise. */
export function withVerdict(verdict: Verdict | Promise<Verdict>, next: (v: Verdict) => void): void {
  if (!(verdict instanceof Promise)) return next(verdict);
  verdict.then(next).catch((e: unknown) => gateLogger.error(`answering after the gate failed: ${String(e)}`));
}

const gateLogger = new Logger('RequestGate');

export const IPV4_ONLY: Refusal = Object.freeze({ status: 403, error: 'ipv4_only' });
export const RATE_LIMITED: Refusal = Object.freeze({
  status: 429,
  error: 'rate limit exceeded: retry after the window resets',
});

const MAPPED = '::ffff:';
const VALID_REQUEST_ID = /^[\w.-]{1,200}$/;

/**
 * The client's IPv4 address, or null when it is not IPv4 (spec 5.3; clarifications 10). The
 * socket's peer is the client unless it is a configured trusted proxy, in which case the
 * rightmost untrusted x-forwarded-for entry is. `::ffff:a.b.c.d` counts as a.b.c.d.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: ReadonlySet<string>,
): string | null {
  let address = unmapped(peer ?? '');
  if (trusted.size > 0 && trusted.has(address) && forwardedFor !== undefined) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((h) => unmapped(h.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      address = hop;
      if (!trusted.has(hop)) break;
    }
  }
  return isIPv4(address) ? address : null;
}

/** `::ffff:a.b.c.d` as a.b.c.d; any other address as it is. */
export function unmapped(address: string): string {
  return address.toLowerCase().startsWith(MAPPED) && isIPv4(address.slice(MAPPED.length))
    ? address.slice(MAPPED.length)
    : address;
}

/** The caller's x-request-id when it matches ^[\w.\-]{1,200}$, otherwise a minted UUID (silently). */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && VALID_REQUEST_ID.test(header) ? header : randomUUID();
}
