import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { importCli } from './support/cli';

const HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const T = 1_709_251_200_000_000;

/**
 * A seeded day of one book, long enough to fill many of a thread's batches (about 9 MB), with bad
 * rows of every kind, a crossing change, texts that are not JSON numbers, a reconnect snapshot,
 * and (for `other`) rows of a second and an unmapped symbol in the same file.
 */
function day(exchange: string, symbol: string, seed: number, offsetUs: number, other?: string): string {
  let s = seed;
  const rnd = (): number => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const rows = [HEADER];
  const snapshot = (t: number, sym: string): void => {
    for (let i = 1; i <= 50; i++) rows.push(`${exchange},${sym},${t},${t},true,bid,${1000 - i},${i}`);
    for (let i = 1; i <= 50; i++) rows.push(`${exchange},${sym},${t},${t},true,ask,${1000 + i},${i}`);
  };
  let t = T + offsetUs;
  snapshot(t, symbol);
  if (other !== undefined) snapshot(t, other);
  for (let m = 0; m < 40_000; m++) {
    t += 1 + Math.floor(rnd() * 3000);
    const ts = rnd() < 0.1 ? t : t - 400;
    const sym = other !== undefined && m % 7 === 0 ? other : symbol;
    for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) {
      const bid = rnd() < 0.5;
      const price =
        (bid ? 999 - Math.floor(rnd() * 40) : 1001 + Math.floor(rnd() * 40)) + (rnd() < 0.3 ? 0.5 : 0);
      const amount = rnd() < 0.3 ? '0' : (rnd() * 9).toFixed(3);
      rows.push(`${exchange},${sym},${ts},${t},false,${bid ? 'bid' : 'ask'},${price},${amount}`);
    }
    if (m % 997 === 5) rows.push(`${exchange},${symbol},${ts},${t},false,bid,1e3,1.50`); // not JSON: written from the numbers
    if (m % 1_009 === 6) rows.push(`${exchange},${symbol},${ts},${t},false,ask,9,1`); // crosses the book
    if (m % 1_013 === 7) rows.push(`${exchange},${symbol},${ts},${t},false,bid,999`); // a field short
    if (m % 1_019 === 8) rows.push(`${exchange},${symbol},${ts},${t - 5_000_000},false,bid,990,1`); // out of order
    if (m % 1_021 === 9) rows.push(`${exchange},${symbol},${ts},${t},false,ask,-5,1`); // negative
    if (m % 1_031 === 10) rows.push(`${exchange},UNKNOWNPAIR,${ts},${t},false,ask,5,1`); // unmapped, skipped
    if (m % 1_033 === 11) rows.push('');
    if (m === 20_000) snapshot(t, symbol);
  }
  return `${rows.join('\n')}\n`;
}

const tmp = mkdtempSync(join(tmpdir(), 'tardis-threads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const files = ['binance.csv.gz', 'okex.csv', 'empty.csv', 'snapshot.csv', 'later.csv.gz'];
writeFileSync(join(tmp, files[0]!), gzipSync(day('binance', 'BTCUSDT', 42, 0)));
writeFileSync(join(tmp, files[1]!), day('okex', 'BTC-USDT', 7, 333, 'ETH-USDT'));
writeFileSync(join(tmp, files[2]!), '');
writeFileSync(
  join(tmp, files[3]!),
  'exchange,symbol,timestamp,local_timestamp,asks[0].price,asks[0].amount,bids[0].price,bids[0].amount\n' +
    `bitstamp,btcusd,${T + 10},${T + 10},101,1,99,2\nbitstamp,btcusd,${T + 90_000_000},${T + 90_000_000},102,1,98,2\n`,
);
// A second day of binance's book in another file, overlapping the first in time: the merge interleaves them.
writeFileSync(join(tmp, files[4]!), gzipSync(day('binance', 'BTCUSDT', 9, 50_000_000)));

/** The import's output, its problems file and what it printed (less the line with its timing). */
function run(
  name: string,
  ...flags: string[]
): { code: number | null; jsonl: string; problems: string; err: string[] } {
  const r = importCli(
    ['--format', 'tardis-csv', '--out', tmp, '--name', name, '--skip-unmapped', ...flags, ...files],
    tmp,
  );
  const read = (f: string): string => {
    try {
      return readFileSync(join(tmp, f), 'utf8');
    } catch {
      return '';
    }
  };
  const err = r.err.map((l) => l.replace(name, 'NAME').replace(/ in [\d.]+ s$/, ''));
  return { code: r.code, jsonl: read(`${name}.jsonl`), problems: read(`${name}.problems.txt`), err };
}

describe('replay import --threads: files parsed on threads give the bytes of a read on the main thread', () => {
  const single = run('single', '--threads', '0');

  it('the same records, problems and summary with a thread a file, and with fewer threads than files', () => {
    expect(single.code).toBe(0);
    expect(single.jsonl.length).toBeGreaterThan(10_000_000);
    // Every kind the files carry, so the comparison covers each event a thread sends.
    for (const kind of ['malformed', 'negative', 'out of order', 'crossed'])
      expect(single.problems).toContain(`: ${kind}: `);
    for (const threads of ['4', '1']) {
      const threaded = run(`threads${threads}`, '--threads', threads);
      expect(threaded.code).toBe(0);
      expect(threaded.jsonl === single.jsonl).toBe(true);
      expect(threaded.problems).toBe(single.problems);
      expect(threaded.err).toEqual(single.err);
    }
  });

  it('--strict stops at the same first problem, writing nothing', () => {
    const a = run('strict0', '--strict', '--threads', '0');
    const b = run('strict4', '--strict', '--threads', '4');
    expect(a.code).toBe(1);
    expect(b.code).toBe(1);
    expect(b.err).toEqual(a.err);
    expect(a.err[0]).toBe(single.problems.split('\n')[0]);
    expect(a.jsonl + b.jsonl).toBe('');
  });

  it('refuses a --threads that is not a small whole number', () => {
    const r = importCli(['--format', 'tardis-csv', '--out', tmp, '--threads', 'many', files[1]!], tmp);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toContain('--threads');
  });
});
