import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@test/support';
import type { QuoteRow } from './run-backtest';
import { RowWriter } from './write-rows';

const ROW: QuoteRow = {
  at: 1_786_300_000_000,
  label: 'plain',
  from: 'BTC',
  to: 'USDT',
  exactSide: 'in',
  amount: 0.5,
  strategy: 'best_single',
  routed: true,
  amountIn: 0.5,
  amountOut: 30_000.25,
  effectiveRate: 60_000.5,
  fillRatio: 1,
  impactBps: 0.25,
  savingVsBestSingleBps: null,
  path: 'BTC/USDT',
  bridge: null,
  venues: 'exa',
  legs: 1,
  unroutableReason: null,
};

/** Python's csv module (an RFC 4180 reader written apart from this code), strict: rows as JSON. */
const READ_CSV = `
import csv, json, sys
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    print(json.dumps(list(csv.reader(f, strict=True))))
`;

describe('backtest quotes.csv', () => {
  const dir = tempDir('write-rows');
  afterAll(() => dir.remove());

  it('quotes every field that needs it (RFC 4180): CR, LF, comma and double quote read back exactly', () => {
    const labels = [
      'cr\rinside',
      'ends with cr\r',
      'lf\ninside',
      'crlf\r\ninside',
      'a, b',
      'say "hi"',
      'plain',
    ];
    const csvPath = join(dir.path, 'quotes.csv');
    const writer = new RowWriter(csvPath, join(dir.path, 'quotes.jsonl'));
    for (const label of labels) writer.write({ ...ROW, label });
    writer.close();
    const r = spawnSync('python3', ['-c', READ_CSV, csvPath], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as string[][];
    expect(rows).toHaveLength(labels.length + 1);
    const header = rows[0]!;
    expect(header).toContain('label');
    rows.slice(1).forEach((row, i) => {
      expect(row).toHaveLength(header.length);
      expect(row[header.indexOf('label')]).toBe(labels[i]);
      expect(row[header.indexOf('amountOut')]).toBe('30000.25');
      expect(row[header.indexOf('bridge')]).toBe('');
    });
  });
});
