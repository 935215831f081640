import { Inject, Injectable } from '@nestjs/common';
import type { ServerConfig } from '@app/config';
import { SERVER_CONFIG } from '../tokens';
import { clientAddress } from './client-address';
import { FixedWindowLimiter } from './rate-limiter';

export type GateDecision =
  | { readonly kind: 'refused' }
  | { readonly kind: 'limited'; readonly address: string; readonly headers: Record<string, string> }
  | { readonly kind: 'admitted'; readonly address: string; readonly headers: Record<string, string> };

/**
 * The first two checks of every request and stream upgrade (clarifications 9-10): the IPv4 rule,
 * then the per-address fixed-window rate limit. Refused requests are not counted.
 */
@Injectable()
export class RequestGate {
  private readonly limiter: FixedWindowLimiter;
  private readonly trusted: ReadonlySet<string>;
  /** Requests and upgrades refused so far, by rule (metrics). */
  readonly refusals = { ipv4Only: 0, rateLimited: 0 };

  constructor(@Inject(SERVER_CONFIG) config: ServerConfig) {
    this.limiter = new FixedWindowLimiter(config.rateLimitRps);
    this.trusted = new Set(config.trustedProxies);
  }

  admit(peer: string | undefined, forwardedFor: string | string[] | undefined): GateDecision {
    const address = clientAddress(peer, forwardedFor, this.trusted);
    if (address === null) {
      this.refusals.ipv4Only++;
      return { kind: 'refused' };
    }
    // performance.now() is monotonic: a wall-clock step must not reopen or stretch windows.
    const d = this.limiter.hit(address, performance.now());
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(d.limit),
      'x-ratelimit-remaining': String(d.remaining),
      'x-ratelimit-reset': String(d.resetSec),
    };
    if (d.allowed) return { kind: 'admitted', address, headers };
    headers['retry-after'] = String(d.resetSec);
    this.refusals.rateLimited++;
    return { kind: 'limited', address, headers };
  }

  /** Client address of an admitted connection (same rule as admit, without counting). */
  addressOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string | null {
    return clientAddress(peer, forwardedFor, this.trusted);
  }
}

export const IPV4_ONLY = { error: 'ipv4_only' } as const;
export const RATE_LIMITED = { error: 'rate limit exceeded: retry after the window resets' } as const;
