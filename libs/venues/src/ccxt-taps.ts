import { sleep, asError } from '@app/retry';
import type { CcxtClient, CcxtProExchange } from './ccxt-venue';

/** What the taps report to the venue's runner. */
export interface TapListener {
  /** A ws client resolved `result` (every venue resolves its live book after applying a change). */
  resolved(result: unknown, client: CcxtClient): void;
  /** A send on `client` failed and nobody in ccxt handled it (the socket closed under a queued subscribe). */
  sendFailed(error: unknown, client: CcxtClient): void;
  /** A REST answer 429/418: wait `retryAfterMs` (null when the venue named no time). */
  rateLimited(status: number, retryAfterMs: number | null): void;
  /** Milliseconds REST calls must still wait (Retry-After not over yet). */
  restWaitMs(): number;
  /** ccxt handled `message` from `client` (its books hold the state the message describes). */
  handled?(message: unknown, client: CcxtClient): void;
}

type RestResponseHook = (
  status: number,
  statusText: string,
  url: string,
  method: string,
  headers: Record<string, string> | undefined,
  body: unknown,
  ...rest: unknown[]
) => unknown;

type Throttle = (cost?: number) => Promise<unknown>;

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null if absent or junk. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/**
 * Wrap a ccxt exchange so the runner sees what it needs and nothing escapes unseen:
 * - every message ccxt handled is shown to the venue's integrity check (integrity.ts), if any;
 * - every ws client's `resolve` reports the book it resolves (change detection, silence timers);
 * - every ws client's `send` gets a rejection handler: ccxt's watch() queues subscribe messages
 *   behind its throttle and drops the promise send() returns, so a socket closing under a queued
 *   subscribe rejects with nobody listening (Exchange.js watch/watchMultiple,
 *   `client.throttle(cost).then(() => { client.send(message) })`), which ends a Node process;
 * - REST answers 429/418 report their Retry-After; every REST call waits it out, new ones before
 *   ccxt's REST throttle and those already queued in it by holding its bucket (so the calls
 *   released when it ends keep ccxt's pace).
 */
export function tapExchange(ex: CcxtProExchange, listener: TapListener, now: () => number): void {
  if (listener.handled !== undefined) {
    // Bound into each client when ccxt creates it: replaced before the first client exists.
    const handle = ex.handleMessage.bind(ex);
    ex.handleMessage = (client: CcxtClient, message: unknown): unknown => {
      const out = handle(client, message);
      listener.handled?.(message, client);
      return out;
    };
  }
  const create = ex.client.bind(ex);
  const tapped = new WeakSet<CcxtClient>();
  ex.client = (url: string): CcxtClient => {
    const client = create(url);
    if (!tapped.has(client)) {
      tapped.add(client);
      const resolve = client.resolve.bind(client);
      client.resolve = (result: unknown, hash?: string): unknown => {
        listener.resolved(result, client);
        return resolve(result, hash);
      };
      const send = client.send.bind(client);
      client.send = (message: unknown): Promise<unknown> => {
        let p: Promise<unknown>;
        try {
          p = Promise.resolve(send(message));
        } catch (e) {
          p = Promise.reject(asError(e));
        }
        // Observed here; the caller still gets the same rejection if it listens.
        p.catch((e: unknown) => listener.sendFailed(e, client));
        return p;
      };
    }
    return client;
  };
  const raw = ex as unknown as {
    onRestResponse: RestResponseHook;
    throttle: Throttle;
    throttler?: Throttler;
  };
  let held: Hold | null = null;
  const onRest = raw.onRestResponse.bind(ex);
  raw.onRestResponse = (status, statusText, url, method, headers, body, ...rest) => {
    if (status === 429 || status === 418) {
      const h = headers ?? {};
      listener.rateLimited(status, retryAfterMs(h['Retry-After'] ?? h['retry-after'], now()));
      held = holdThrottler(raw.throttler, listener.restWaitMs()) ?? held;
    }
    return onRest(status, statusText, url, method, headers, body, ...rest);
  };
  // New requests wait out a Retry-After before ccxt's REST throttle, not after it: requests
  // released together when the wait ends then still leave one by one at ccxt's pace.
  const throttle = raw.throttle.bind(ex);
  raw.throttle = async (cost?: number) => {
    for (let wait = listener.restWaitMs(); wait > 0; wait = listener.restWaitMs()) await sleep(wait);
    // ccxt's bucket refills only while requests are queued: a hold no queued request sat out is
    // served by the wait above, so it is lifted rather than waited out a second time.
    const c = raw.throttler?.config;
    if (held !== null && c !== undefined && raw.throttler!.running !== true && c.tokens === held.tokens)
      c.tokens = held.before;
    held = null;
    return throttle(cost);
  };
}

/** A hold put on ccxt's bucket: the tokens it set, and what they were. */
interface Hold {
  readonly tokens: number;
  readonly before: number;
}

/** ccxt's REST throttler (base/functions/throttle.js), the parts read here. */
interface Throttler {
  readonly config: { tokens: number; refillRate: number; algorithm?: string };
  readonly running?: boolean;
}

/**
 * Requests already queued inside ccxt's throttler when a 429 arrived wait too: its leaky bucket
 * is drained to `-waitMs x refillRate` tokens, so the queue stands still for `waitMs` and then
 * leaves at ccxt's own pace (rateLimit x each request's cost), never in a burst.
 */
function holdThrottler(throttler: Throttler | undefined, waitMs: number): Hold | null {
  const c = throttler?.config;
  if (c === undefined || waitMs <= 0 || !(c.refillRate > 0) || !Number.isFinite(c.refillRate)) return null;
  if (c.algorithm !== undefined && c.algorithm !== 'leakyBucket') return null;
  const before = c.tokens;
  c.tokens = Math.min(c.tokens, -waitMs * c.refillRate);
  return { tokens: c.tokens, before };
}
