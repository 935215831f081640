import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { Limits, type RateLimiter } from '../limits/limits';
import { SERVER_CONFIG } from '../tokens';
import { clientAddress, unmapped } from './client-address';
import type { RateDecision } from '../limits/rate-limiter';
import { requestIdFrom } from './request-id';

/** The gate's own refusal: 403 ipv4_only or 429 over the rate limit. */
export interface Refusal {
  readonly status: 403 | 429;
  readonly error: string;
}

/** What the gate decided for one answer the server is about to give. */
export interface Verdict {
  /** x-request-id always; the x-ratelimit-* headers when counted; retry-after when limited. */
  readonly headers: Readonly<Record<string, string>>;
  /** The answer the gate gives instead, or null when the request may go on. */
  readonly refusal: Refusal | null;
}

/**
 * The first checks of every answer the server gives (clarifications 9-10; docs/api.md "Order of
 * checks"): the IPv4 rule (403, not counted), then the per-address fixed-window rate limit, and the
 * headers every answer carries. Requests, stream upgrades, malformed HTTP, timeouts and refused
 * connections all pass here, so each is counted once and answered alike.
 */
@Injectable()
export class RequestGate {
  private readonly limiter: RateLimiter;
  private readonly trusted: ReadonlySet<string>;
  /** Requests and upgrades refused so far, by rule (metrics). */
  readonly refusals = { ipv4Only: 0, rateLimited: 0 };

  constructor(@Inject(SERVER_CONFIG) config: ServerConfig, @Inject(Limits) limits: Limits) {
    this.limiter = limits.rate;
    this.trusted = new Set(config.trustedProxies);
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
    const headers: Record<string, string> = { 'x-request-id': requestIdFrom(requestId) };
    const address = clientAddress(peer, forwardedFor, this.trusted);
    if (address === null) {
      this.refusals.ipv4Only++;
      return { headers, refusal: IPV4_ONLY };
    }
    // performance.now() is monotonic: a wall-clock step must not reopen or stretch windows.
    const d = this.limiter.hit(address, performance.now());
    return d instanceof Promise ? d.then((x) => this.decide(headers, x)) : this.decide(headers, d);
  }

  private decide(headers: Record<string, string>, d: RateDecision): Verdict {
    headers['x-ratelimit-limit'] = String(d.limit);
    headers['x-ratelimit-remaining'] = String(d.remaining);
    headers['x-ratelimit-reset'] = String(d.resetSec);
    if (d.allowed) return { headers, refusal: null };
    headers['retry-after'] = String(d.resetSec);
    this.refusals.rateLimited++;
    return { headers, refusal: RATE_LIMITED };
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
