/**
 * What one route request may carry (docs/api.md "Limits and timeouts"). Every cap is checked
 * before any other work on the value, and exceeding one is a 400 that names it (414 for the query
 * string as a whole), so no request can make the parser do more than linear work on bounded text.
 */
export const REQUEST_LIMITS = Object.freeze({
  /** Characters of the request target's path (before '?'), checked before any routing (414). */
  pathChars: 1024,
  /** Characters of the query string (after '?'), before decoding. */
  queryChars: 4096,
  /** name=value pairs in one query string. */
  queryPairs: 32,
  /** Characters of one parameter value after decoding (lists and balances have their own cap). */
  valueChars: 256,
  /** Characters of a list value (bridges, exchanges) and of the balances value. */
  listChars: 4096,
  balancesChars: 4096,
  /** Entries of each list parameter. */
  bridges: 16,
  exchanges: 128,
  balancesEntries: 128,
  /** JSON bodies (POST /route): nesting depth and object keys in the whole document. */
  jsonDepth: 4,
  jsonKeys: 512,
  /** Characters of a bad value an error message quotes. */
  quotedChars: 32,
});

/**
 * The smallest amount (amountIn, amountOut, in units of the asset) a route is computed for; less
 * is a 400 (docs/api.md "Route parameters"). No venue trades that little (the smallest lot steps
 * of the pinned ccxt markets are around 1e-8), and far below it prices times amounts leave the
 * range where doubles keep their precision: amountIn=5e-324 was quoted with amountOut 1.6e-320
 * and an impact of -2.67 bps. A power of ten, so its written form has an exact pattern.
 */
export const SMALLEST_AMOUNT = 1e-12;

/** A bad value as an error message shows it: quoted, and cut to a short prefix when long. */
export function shown(value: string): string {
  const max = REQUEST_LIMITS.quotedChars;
  if (value.length <= max) return `'${value}'`;
  return `'${value.slice(0, max)}…' (${value.length} characters)`;
}

/** Object keys that could reach a prototype: refused wherever a client names a key. */
export const PROTOTYPE_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}
