import { closeSync, openSync, writeSync } from 'node:fs';
import type { QuoteRow } from './run-backtest';

const COLUMNS: readonly (keyof QuoteRow)[] = [
  'at',
  'label',
  'from',
  'to',
  'exactSide',
  'amount',
  'strategy',
  'routed',
  'amountIn',
  'amountOut',
  'effectiveRate',
  'fillRatio',
  'impactBps',
  'savingVsBestSingleBps',
  'path',
  'bridge',
  'venues',
  'legs',
  'unroutableReason',
];

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled. */
function csvCell(v: QuoteRow[keyof QuoteRow]): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Streams rows to quotes.csv and quotes.jsonl, buffered. */
export class RowWriter {
  private readonly csv: number;
  private readonly jsonl: number;
  private csvBuf: string[] = [];
  private jsonBuf: string[] = [];
  rows = 0;

  constructor(csvPath: string, jsonlPath: string) {
    this.csv = openSync(csvPath, 'w');
    this.jsonl = openSync(jsonlPath, 'w');
    this.csvBuf.push(`${COLUMNS.join(',')}\n`);
  }

  write(row: QuoteRow): void {
    this.csvBuf.push(`${COLUMNS.map((c) => csvCell(row[c])).join(',')}\n`);
    this.jsonBuf.push(`${JSON.stringify(row)}\n`);
    if (++this.rows % 4096 === 0) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.csv);
    closeSync(this.jsonl);
  }

  private flush(): void {
    if (this.csvBuf.length > 0) writeSync(this.csv, this.csvBuf.join(''));
    if (this.jsonBuf.length > 0) writeSync(this.jsonl, this.jsonBuf.join(''));
    this.csvBuf = [];
    this.jsonBuf = [];
  }
}
