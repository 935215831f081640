import * as ccxt from 'ccxt';
import type { ChecksumMeaning } from './venue-rule';

/**
 * What a rejection of a watch call means for the books it covers:
 * - `unsubscribed`: the runner unsubscribed a book to resynchronise it; re-subscribe at once;
 * - `gap` / `checksum`: one book's integrity broke (ccxt dropped it); resubscribe that book;
 * - `rate-limited`: the venue said 429/418 (or ccxt's limiter did); wait at least its Retry-After;
 * - `config`: the venue refuses us for good (keys, an unknown symbol); keep retrying slowly;
 * - `network`: the connection went (ccxt re-dials on the next watch).
 */
export type FailureKind = 'unsubscribed' | 'gap' | 'checksum' | 'rate-limited' | 'config' | 'network';

export function failureKind(e: unknown, checksumMeans: ChecksumMeaning): FailureKind {
  if (e instanceof ccxt.UnsubscribeError) return 'unsubscribed';
  if (e instanceof ccxt.ChecksumError) return checksumMeans;
  if (e instanceof ccxt.InvalidNonce) return 'gap';
  if (e instanceof ccxt.RateLimitExceeded || e instanceof ccxt.DDoSProtection) return 'rate-limited';
  if (e instanceof ccxt.NetworkError) return /\b(429|418)\b/.test(messageOf(e)) ? 'rate-limited' : 'network';
  if (
    e instanceof ccxt.AuthenticationError ||
    e instanceof ccxt.PermissionDenied ||
    e instanceof ccxt.BadSymbol ||
    e instanceof ccxt.NotSupported ||
    e instanceof ccxt.ArgumentsRequired
  )
    return 'config';
  return 'network';
}

/** `ClassName: message` of an error (what lastError and the logs carry). */
export function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
}
