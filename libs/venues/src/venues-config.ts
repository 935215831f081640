import { readFileSync } from 'node:fs';

/** One venue entry of VENUES_CONFIG. */
export interface VenueConfigEntry {
  /** Unified symbols to watch; null = every spot market among the asset universe. */
  readonly symbols: readonly string[] | null;
  /** Options deep-merged into the ccxt constructor options (urls, markets, apiKey, options...). */
  readonly ccxt: Readonly<Record<string, unknown>>;
  /** The `limit` passed to watchOrderBook (venue-specific depth channel), or null for the default. */
  readonly watchLimit: number | null;
}

/** The parsed VENUES_CONFIG file: venues in the order written. */
export interface VenuesConfig {
  readonly venues: ReadonlyMap<string, VenueConfigEntry>;
}

/** Every problem found in a VENUES_CONFIG file, listed at once. */
export class VenuesConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid venues config ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'VenuesConfigError';
  }
}

const VENUE_KEYS = new Set(['symbols', 'ccxt', 'watchLimit']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validate the decoded file `{ "venues": { "<exchangeId>": { symbols?, ccxt?, watchLimit? } } }`.
 * `knownIds` are the ccxt pro classes with watchOrderBook; an unknown id is an error, not a skip.
 */
export function parseVenuesConfig(
  value: unknown,
  source: string,
  knownIds: ReadonlySet<string>,
): VenuesConfig {
  const problems: string[] = [];
  const venues = new Map<string, VenueConfigEntry>();
  if (!isObject(value)) throw new VenuesConfigError(source, ['the file must hold a JSON object']);
  for (const key of Object.keys(value)) if (key !== 'venues') problems.push(`unknown top-level key '${key}'`);
  if (!isObject(value.venues)) {
    problems.push("'venues' must be an object keyed by ccxt exchange id");
    throw new VenuesConfigError(source, problems);
  }
  for (const [id, raw] of Object.entries(value.venues)) {
    const at = `venues.${id}`;
    if (!knownIds.has(id)) problems.push(`${at}: '${id}' is not a ccxt pro exchange with watchOrderBook`);
    if (!isObject(raw)) {
      problems.push(`${at}: must be an object`);
      continue;
    }
    for (const key of Object.keys(raw))
      if (!VENUE_KEYS.has(key)) problems.push(`${at}: unknown key '${key}'`);
    let symbols: string[] | null = null;
    if (raw.symbols !== undefined) {
      if (
        !Array.isArray(raw.symbols) ||
        raw.symbols.some((s) => typeof s !== 'string' || !/^\S+\/\S+$/.test(s))
      ) {
        problems.push(`${at}.symbols: must be an array of unified symbols like "BTC/USDT"`);
      } else if (raw.symbols.length === 0) {
        problems.push(`${at}.symbols: must not be empty (omit it for the default universe)`);
      } else {
        symbols = [...new Set(raw.symbols as string[])];
      }
    }
    if (raw.ccxt !== undefined && !isObject(raw.ccxt))
      problems.push(`${at}.ccxt: must be an object of ccxt options`);
    let watchLimit: number | null = null;
    if (raw.watchLimit !== undefined) {
      if (typeof raw.watchLimit !== 'number' || !Number.isInteger(raw.watchLimit) || raw.watchLimit < 1) {
        problems.push(`${at}.watchLimit: must be a positive integer`);
      } else watchLimit = raw.watchLimit;
    }
    venues.set(id, { symbols, ccxt: isObject(raw.ccxt) ? raw.ccxt : {}, watchLimit });
  }
  if (problems.length > 0) throw new VenuesConfigError(source, problems);
  return { venues };
}

/** Read and validate a VENUES_CONFIG file; throws VenuesConfigError with every problem. */
export function loadVenuesConfig(path: string, knownIds: ReadonlySet<string>): VenuesConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new VenuesConfigError(path, [`cannot read the file: ${(e as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new VenuesConfigError(path, [`not valid JSON: ${(e as Error).message}`]);
  }
  return parseVenuesConfig(value, path, knownIds);
}
