import type { RouteResult } from '@app/routing';

/** How another solver's answer to one quote compares with this build's. */
export interface QuoteDelta {
  /** The two responses are byte-identical. */
  readonly identical: boolean;
  /** What the caller did not pin (amountOut when exact-in, amountIn when exact-out), per solver. */
  readonly value: number;
  readonly otherValue: number;
  /**
   * (otherRate / rate - 1) * 10000 on the effective rate (output per input): positive when the
   * other solver's route converts at a better rate. 10000 (or -10000) when only one of them routes.
   */
  readonly bps: number;
}

const rate = (r: RouteResult): number =>
  r.unroutableReason !== null || r.amountIn <= 0 ? 0 : r.amountOut / r.amountIn;

/** Compare two results of one request: bytes, then the rate in bps. */
export function quoteDelta(
  body: string,
  result: RouteResult,
  otherBody: string,
  other: RouteResult,
): QuoteDelta {
  const pinnedIn = result.exactSide === 'in';
  const value = pinnedIn ? result.amountOut : result.amountIn;
  const otherValue = pinnedIn ? other.amountOut : other.amountIn;
  if (body === otherBody) return { identical: true, value, otherValue, bps: 0 };
  const a = rate(result);
  const b = rate(other);
  let bps = 0;
  if (a > 0 && b > 0) bps = (b / a - 1) * 10_000;
  else if (a > 0) bps = -10_000;
  else if (b > 0) bps = 10_000;
  return { identical: false, value, otherValue, bps };
}
