import type { VenueObservation } from './venue-probe';

export type Verdict = 'ok' | 'warn' | 'fail';

/** One venue's result: what was observed, the verdict and why. */
export interface VenueResult extends VenueObservation {
  readonly verdict: Verdict;
  readonly reason: string;
}

/** The whole check, as `--json` prints it. */
export interface CheckReport {
  readonly seconds: number;
  readonly venues: readonly VenueResult[];
}

/**
 * The verdict of one venue after `seconds`: fail when it listed no market in the universe or
 * published no book at all (a deployment would get nothing from it); warn when some books never
 * came, the feed broke its integrity (gaps, checksum failures, bad books, stalls) or the venue
 * dropped; ok otherwise.
 */
export function judge(o: VenueObservation, seconds: number): { verdict: Verdict; reason: string } {
  if (o.markets.length === 0)
    return {
      verdict: 'fail',
      reason: o.errors.length > 0 ? 'no markets loaded' : 'no market in the universe',
    };
  if (o.booksLive.length === 0) return { verdict: 'fail', reason: `no book in ${seconds} s` };
  const missing = o.markets.length - o.booksLive.length;
  if (missing > 0) return { verdict: 'warn', reason: `${missing} of ${o.markets.length} books never came` };
  const integrity = [
    [o.gaps, 'gap'],
    [o.checksumFailures, 'checksum failure'],
    [o.badBooks, 'bad book'],
    [o.stalls, 'stall'],
  ] as const;
  const broken = integrity.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  if (broken.length > 0) return { verdict: 'warn', reason: broken.join(', ') };
  if (o.reconnects > 0) return { verdict: 'warn', reason: `dropped ${o.reconnects} time(s)` };
  if (!o.connected) return { verdict: 'warn', reason: 'not connected at the end' };
  return { verdict: 'ok', reason: '' };
}

/** The report of observations over `seconds`. */
export function checkReport(observations: readonly VenueObservation[], seconds: number): CheckReport {
  return { seconds, venues: observations.map((o) => ({ ...o, ...judge(o, seconds) })) };
}

/** 1 when a selected venue failed, else 0. */
export function exitCode(report: CheckReport): number {
  return report.venues.some((v) => v.verdict === 'fail') ? 1 : 0;
}

/** Longest venue message shown in the table (--json has them whole). */
const SAID_WIDTH = 160;

const HEAD = [
  'VENUE',
  'MARKETS',
  'BOOKS',
  'FIRST BOOK',
  'DEPTH B/A',
  'UPD/S',
  'GAPS',
  'CKSUM',
  'BAD',
  'VERDICT',
];

/** The table a person reads: one row per venue, then up to two of its errors in its own words. */
export function renderTable(report: CheckReport): string {
  const rows = report.venues.map((v) => [
    v.exchangeId,
    String(v.markets.length),
    String(v.booksLive.length),
    v.firstBookMs === null ? '-' : `${(v.firstBookMs / 1000).toFixed(1)} s`,
    v.depth === null ? '-' : `${v.depth.bids}/${v.depth.asks}`,
    v.updatesPerSecond.toFixed(1),
    String(v.gaps),
    String(v.checksumFailures),
    String(v.badBooks),
    v.verdict === 'ok' ? 'ok' : `${v.verdict.toUpperCase()}  ${v.reason}`,
  ]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(HEAD)];
  report.venues.forEach((v, i) => {
    out.push(line(rows[i]!));
    for (const said of v.verdict === 'ok' ? [] : v.errors.slice(-2))
      out.push(`    ${v.exchangeId} said: ${clip(said)}`);
  });
  const count = (verdict: Verdict): number => report.venues.filter((v) => v.verdict === verdict).length;
  out.push(
    '',
    `checked ${report.venues.length} venue(s) for ${report.seconds} s: ${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`,
  );
  return `${out.join('\n')}\n`;
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > SAID_WIDTH ? `${one.slice(0, SAID_WIDTH - 1)}…` : one;
}
