import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VENUES,
  EXCLUDED_VENUES,
  ruleOf,
  VENUE_RULES,
  RULES_TABLE_HEAD,
  venueRulesRows,
} from '@app/venues';
import { SPEAKERS } from './chaos/speakers';
import { localCcxt } from './chaos/markets';

type Pro = new (config?: Record<string, unknown>) => {
  has: Record<string, unknown>;
  loadHttpProxyAgent(): Promise<unknown>;
  watchOrderBook(symbol: string, limit?: number): Promise<unknown>;
  watchOrderBookForSymbols(symbols: string[], limit?: number): Promise<unknown>;
  close(): Promise<unknown>;
};
const pro = (id: string): Pro => (ccxt.pro as unknown as Record<string, Pro>)[id]!;

/** The cells of the markdown table under `heading` in docs/venues.md. */
function docTable(heading: string): string[][] {
  const text = readFileSync(resolve(__dirname, '../../docs/venues.md'), 'utf8');
  const from = text.indexOf(heading);
  expect(from, `docs/venues.md has "${heading}"`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(start)) {
    if (!l.startsWith('|')) break;
    rows.push(
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\\\|/g, '|')),
    );
  }
  return rows;
}

describe('the venue rules table', () => {
  it('covers every default venue and every venue left out for keys or markets, consistently with the defaults', () => {
    for (const id of DEFAULT_VENUES) {
      expect(VENUE_RULES[id], id).toBeDefined();
      expect(ruleOf(id).sources.length, id).toBeGreaterThan(0);
      expect(ruleOf(id).credentials, id).toBeUndefined();
      expect(ruleOf(id).noDefaultMarket, id).toBeUndefined();
    }
    for (const [id, r] of Object.entries(VENUE_RULES)) {
      if (r.credentials === undefined && r.noDefaultMarket === undefined) continue;
      expect(DEFAULT_VENUES, id).not.toContain(id);
      expect(EXCLUDED_VENUES[id], id).toBeDefined();
    }
  });

  it('asks of each ccxt class only what it can do: groups where it watches many books, single-book resync where it can unsubscribe one', () => {
    for (const id of DEFAULT_VENUES) {
      const has = new (pro(id))().has;
      if (ruleOf(id).perRequest > 1) expect(has.watchOrderBookForSymbols, id).toBe(true);
      if (ruleOf(id).resync === 'book') expect(has.unWatchOrderBook, id).toBe(true);
    }
  });

  it("every watch limit is one the venue's ccxt class accepts (it dials instead of refusing the limit)", async () => {
    const limited = DEFAULT_VENUES.filter((id) => ruleOf(id).watchLimit !== null);
    expect(limited.length).toBeGreaterThan(10);
    const results = await Promise.all(
      limited.map(async (id) => {
        const speaker = SPEAKERS[id]!();
        // Every URL at a closed port: an accepted limit fails on the dial, a refused one before it.
        const ex = new (pro(id))({
          enableRateLimit: true,
          ...localCcxt(id, { http: 'http://127.0.0.1:9', ws: 'ws://127.0.0.1:9' }, speaker.markets),
        });
        await ex.loadHttpProxyAgent();
        const symbol = `${speaker.markets[0]!.base}/${speaker.markets[0]!.quote}`;
        const limit = ruleOf(id).watchLimit!;
        const watch =
          ruleOf(id).perRequest > 1
            ? ex.watchOrderBookForSymbols([symbol], limit)
            : ex.watchOrderBook(symbol, limit);
        const error = await watch.then(
          () => null,
          (e: unknown) => e,
        );
        await ex.close().catch(() => undefined);
        return { id, error };
      }),
    );
    for (const { id, error } of results) expect(error, id).toBeInstanceOf(ccxt.NetworkError);
  }, 60_000);

  it('docs/venues.md lists every rule with its sources, exactly as the table holds them', () => {
    const rows = docTable('## Venue rules');
    expect(rows[0]).toEqual(RULES_TABLE_HEAD);
    // npm run docs:venues writes the table.
    expect(rows.slice(2)).toEqual(venueRulesRows());
  });
});
