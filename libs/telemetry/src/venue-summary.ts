import type { Fields } from './logger';

/** One venue as the summary sees it. */
export interface VenueLine {
  readonly exchangeId: string;
  readonly connected: boolean;
  readonly books: number;
  /** Books in sync and younger than the freshness cutoff at the service clock. */
  readonly freshBooks: number;
  readonly lastError: string | null;
  /** Parked by the ingestor's circuit breaker; absent = read from lastError (PARKED_PREFIX). */
  readonly parked?: boolean;
}

/** How a venue record's lastError starts while the venue is parked (the API reads it from there). */
export const PARKED_PREFIX = 'parked until ';

export interface SummaryInput {
  /** /health's status (or the ingestor's own word for its state). */
  readonly status: string;
  readonly venues: readonly VenueLine[];
}

/** Venues named in the message itself; every failing venue is in the `failing` field. */
const NAMED = 8;
/** An error text longer than this is cut in the fields (ccxt errors can carry whole responses). */
const ERROR_CHARS = 200;

/**
 * The periodic console summary as one line: how many venues are connected and fresh, how many
 * books are fresh, and each failing venue with its error (a venue is failing when it is not
 * connected or has no fresh book). Venues in code-unit order, so two summaries of the same state
 * read alike.
 */
export function venueSummary(input: SummaryInput): { message: string; fields: Fields } {
  const venues = [...input.venues].sort((a, b) =>
    a.exchangeId < b.exchangeId ? -1 : a.exchangeId > b.exchangeId ? 1 : 0,
  );
  let connected = 0;
  let fresh = 0;
  let books = 0;
  let freshBooks = 0;
  let parked = 0;
  const failing: Record<string, string> = {};
  for (const v of venues) {
    if (v.parked ?? v.lastError?.startsWith(PARKED_PREFIX) === true) parked++;
    if (v.connected) connected++;
    if (v.freshBooks > 0) fresh++;
    books += v.books;
    freshBooks += v.freshBooks;
    if (!v.connected || v.freshBooks === 0) failing[v.exchangeId] = reason(v);
  }
  const names = Object.keys(failing);
  const shown = names.slice(0, NAMED).join(', ');
  const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
  const message =
    `${input.status}: venues ${connected}/${venues.length} connected, ${fresh} fresh` +
    (parked > 0 ? `, ${parked} parked; ` : '; ') +
    `books ${freshBooks}/${books} fresh` +
    (names.length > 0 ? `; failing: ${shown}${more}` : '');
  return {
    message,
    fields: {
      status: input.status,
      venues: venues.length,
      connected,
      freshVenues: fresh,
      ...(parked > 0 ? { parked } : {}),
      books,
      freshBooks,
      // Only when there is one: a healthy summary stays short.
      ...(names.length > 0 ? { failing } : {}),
    },
  };
}

function reason(v: VenueLine): string {
  const error = v.lastError === null ? null : cut(v.lastError);
  if (!v.connected) return error ?? 'not connected';
  return v.books === 0 ? 'connected, no book yet' : 'connected, every book stale or out of sync';
}

function cut(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > ERROR_CHARS ? `${one.slice(0, ERROR_CHARS - 3)}...` : one;
}
