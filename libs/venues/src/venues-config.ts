import { readFileSync } from 'node:fs';

/** One venue entry of VENUES_CONFIG. */
export interface VenueConfigEntry {
  /** Unified symbols to watch; null = every spot market among the asset universe. */
  readonly symbols: readonly string[] | null;
  /** Options deep-merged into the ccxt constructor options (urls, markets, apiKey, options...). */
  readonly ccxt: Readonly<Record<string, unknown>>;
  /** The `limit` passed to watchOrderBook (venue-specific depth channel), or null for the venue rule's. */
  readonly watchLimit: number | null;
  /** A book silent this long (ms) is resubscribed; null = derived from the venue's update rate. */
  readonly silenceMs: number | null;
  /** false turns the ingestor's own integrity checks of the venue off (ccxt's own stay); null = on. */
  readonly checksum: boolean | null;
  /** A checksum over the ingestor's book verified at most once per this many ms per book (0 = every message); null = the default. */
  readonly checksumEveryMs: number | null;
}

/** `defaults`: knobs for every venue of the file (tests compress timeouts with them). */
export interface VenuesDefaults {
  readonly silenceMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  readonly breaker?: {
    readonly failures: number;
    readonly failingMs: number;
    readonly probeMs: number;
    readonly maxProbeMs: number;
  };
}

/** The parsed VENUES_CONFIG file: venues in the order written. */
export interface VenuesConfig {
  readonly venues: ReadonlyMap<string, VenueConfigEntry>;
  readonly defaults?: VenuesDefaults;
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

const VENUE_KEYS = new Set(['symbols', 'ccxt', 'watchLimit', 'silenceMs', 'checksum', 'checksumEveryMs']);
const BREAKER_KEYS = ['failures', 'failingMs', 'probeMs', 'maxProbeMs'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validate the decoded file `{ "venues": { "<exchangeId>": { symbols?, ccxt?, watchLimit?,
 * silenceMs?, checksum?, checksumEveryMs? } }, "defaults"?: { silenceMs?, backoff?, breaker? } }`.
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
  for (const key of Object.keys(value))
    if (key !== 'venues' && key !== 'defaults') problems.push(`unknown top-level key '${key}'`);
  const defaults = value.defaults === undefined ? undefined : parseDefaults(value.defaults, problems);
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
    const watchLimit = positive(raw.watchLimit, `${at}.watchLimit`, problems);
    const silenceMs = positive(raw.silenceMs, `${at}.silenceMs`, problems);
    let checksum: boolean | null = null;
    if (raw.checksum !== undefined) {
      if (typeof raw.checksum !== 'boolean') problems.push(`${at}.checksum: must be true or false`);
      else checksum = raw.checksum;
    }
    const checksumEveryMs = nonNegative(raw.checksumEveryMs, `${at}.checksumEveryMs`, problems);
    venues.set(id, {
      symbols,
      ccxt: isObject(raw.ccxt) ? raw.ccxt : {},
      watchLimit,
      silenceMs,
      checksum,
      checksumEveryMs,
    });
  }
  if (problems.length > 0) throw new VenuesConfigError(source, problems);
  return defaults === undefined ? { venues } : { venues, defaults };
}

/** A positive integer, or null when absent (a problem is noted otherwise). */
function positive(v: unknown, at: string, problems: string[]): number | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    problems.push(`${at}: must be a positive integer`);
    return null;
  }
  return v;
}

/** A non-negative integer, or null when absent (a problem is noted otherwise). */
function nonNegative(v: unknown, at: string, problems: string[]): number | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    problems.push(`${at}: must be an integer >= 0 (ms; 0 = every message)`);
    return null;
  }
  return v;
}

function parseDefaults(raw: unknown, problems: string[]): VenuesDefaults {
  if (!isObject(raw)) {
    problems.push("'defaults' must be an object");
    return {};
  }
  let out: { -readonly [K in keyof VenuesDefaults]: VenuesDefaults[K] } = {};
  for (const key of Object.keys(raw))
    if (!['silenceMs', 'backoff', 'breaker'].includes(key)) problems.push(`defaults: unknown key '${key}'`);
  const silenceMs = positive(raw.silenceMs, 'defaults.silenceMs', problems);
  if (silenceMs !== null) out = { ...out, silenceMs };
  if (raw.backoff !== undefined) {
    const b = raw.backoff;
    const initialMs = isObject(b) ? positive(b.initialMs, 'defaults.backoff.initialMs', problems) : null;
    const maxMs = isObject(b) ? positive(b.maxMs, 'defaults.backoff.maxMs', problems) : null;
    if (initialMs === null || maxMs === null || maxMs < initialMs)
      problems.push('defaults.backoff: must be { initialMs, maxMs } with 1 <= initialMs <= maxMs');
    else out = { ...out, backoff: { initialMs, maxMs } };
  }
  if (raw.breaker !== undefined) {
    const b = raw.breaker;
    const values = BREAKER_KEYS.map((k) =>
      isObject(b) ? positive(b[k], `defaults.breaker.${k}`, problems) : null,
    );
    if (values.some((v) => v === null))
      problems.push(`defaults.breaker: must be { ${BREAKER_KEYS.join(', ')} }, positive integers`);
    else {
      const [failures, failingMs, probeMs, maxProbeMs] = values as number[];
      out = {
        ...out,
        breaker: { failures: failures!, failingMs: failingMs!, probeMs: probeMs!, maxProbeMs: maxProbeMs! },
      };
    }
  }
  return out;
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
