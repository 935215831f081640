import * as ccxt from 'ccxt';
import { DEFAULT_VENUES } from './default-venues';
import { defaultSilenceMs, ruleOf, VENUE_RULES } from './venue-quirks';

/** ccxt's pause between two subscribe messages on one connection: rateLimit x options.ws.cost (ms). */
export function subscribePacingMs(exchangeId: string): number {
  const Pro = (
    ccxt.pro as unknown as Record<
      string,
      new () => { rateLimit: number; options: { ws?: { cost?: number } } }
    >
  )[exchangeId];
  if (Pro === undefined) throw new Error(`'${exchangeId}' is not a ccxt pro exchange`);
  const ex = new Pro();
  return Math.round(ex.rateLimit * (ex.options.ws?.cost ?? 1) * 10) / 10;
}

const cell = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : String(v));

/** The columns of the venue rules table. */
export const RULES_TABLE_HEAD: readonly string[] = [
  'venue',
  'status',
  'books per request',
  'books per connection',
  'subscribe pacing',
  'watch limit',
  'resync unit',
  'silence timeout',
  'alias markets',
  'REST snapshot weight',
  'sources',
];

/**
 * The venue rules as docs/venues.md carries them (a test checks the document's table has exactly
 * these cells): one row per venue of the table, defaults first, then the left-out ones.
 */
export function venueRulesRows(): string[][] {
  const ids = [
    ...DEFAULT_VENUES,
    ...Object.keys(VENUE_RULES)
      .filter((id) => !DEFAULT_VENUES.includes(id))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  ];
  return ids.map((id) => {
    const r = ruleOf(id);
    const status =
      r.credentials !== undefined
        ? `not a default: ${r.credentials}`
        : r.noDefaultMarket !== undefined
          ? `not a default: ${r.noDefaultMarket}`
          : 'default';
    const aliases =
      r.aliases === undefined
        ? '-'
        : Object.entries(r.aliases)
            .map(([a, t]) => `${a} = ${t}`)
            .join(', ');
    const rest = r.rest === undefined ? '-' : `${r.rest.snapshotWeight} of ${r.rest.weightPerMinute}/min`;
    return [
      id,
      status,
      cell(r.perRequest),
      cell(r.perConnection),
      `${subscribePacingMs(id)} ms`,
      cell(r.watchLimit),
      r.resync,
      `${defaultSilenceMs(r) / 1000} s`,
      aliases,
      rest,
      r.sources.join('; '),
    ];
  });
}

/** The table as markdown (to write into docs/venues.md; prettier aligns it). */
export function venueRulesTable(): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    line(RULES_TABLE_HEAD),
    line(RULES_TABLE_HEAD.map(() => '---')),
    ...venueRulesRows().map(line),
  ].join('\n');
}
