import { closeSync, openSync, writeSync } from 'node:fs';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { CellSummary } from './cells';
import type { QuoteRow } from './run-backtest';

type ParquetType = 'STRING' | 'DOUBLE' | 'BOOLEAN' | 'INT32' | 'TIMESTAMP';
type Value = string | number | boolean | Date | null;

/** One Parquet column: its name, type, whether it may be null, and how to read it from a row. */
interface Column<T> {
  readonly name: string;
  readonly type: ParquetType;
  readonly nullable: boolean;
  readonly get: (row: T) => Value;
}

/** A ByteWriter that hands each finished row group to a file, so memory holds one group at most. */
class FileByteWriter extends ByteWriter {
  constructor(private readonly fd: number) {
    super(1 << 20);
  }
  flush(): void {
    if (this.index > 0) writeSync(this.fd, new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
  }
  override finish(): void {
    this.flush();
  }
}

/**
 * Streams rows into a Parquet file with hyparquet-writer (pure JavaScript, no native or
 * WebAssembly binary; snappy-compressed row groups of `groupRows` rows). pandas, polars, DuckDB
 * and Arrow read it as typed columns; test/replay/parquet.int.spec.ts reads one back with pyarrow.
 */
export class ParquetRows<T> {
  private readonly fd: number;
  private readonly writer: ParquetWriter;
  private readonly data: Value[][];
  private rows = 0;

  constructor(
    path: string,
    private readonly columns: readonly Column<T>[],
    private readonly groupRows = 100_000,
  ) {
    this.fd = openSync(path, 'w');
    this.data = columns.map(() => []);
    const schema = schemaFromColumnData({
      columnData: columns.map((c) => ({ name: c.name, data: [], type: c.type, nullable: c.nullable })),
    });
    this.writer = new ParquetWriter({
      writer: new FileByteWriter(this.fd),
      schema,
      createdBy: 'route-service backtest',
    });
  }

  add(row: T): void {
    for (let i = 0; i < this.columns.length; i++) this.data[i]!.push(this.columns[i]!.get(row));
    if (++this.rows % this.groupRows === 0) this.flush();
  }

  close(): void {
    try {
      this.flush();
      void this.writer.finish();
    } finally {
      closeSync(this.fd);
    }
  }

  private flush(): void {
    if (this.data[0]!.length === 0) return;
    const columnData = this.columns.map((c, i) => ({
      name: c.name,
      data: this.data[i]!,
      type: c.type,
      nullable: c.nullable,
    }));
    void this.writer.write({ columnData, rowGroupSize: this.groupRows });
    for (const d of this.data) d.length = 0;
  }
}

const col = <T>(name: string, type: ParquetType, get: (r: T) => Value, nullable = false): Column<T> => ({
  name,
  type,
  nullable,
  get,
});

/** quotes.parquet: the columns of quotes.csv, `at` as a UTC millisecond timestamp. */
export const QUOTE_COLUMNS: readonly Column<QuoteRow>[] = [
  col('at', 'TIMESTAMP', (r) => new Date(r.at)),
  col('label', 'STRING', (r) => r.label),
  col('from', 'STRING', (r) => r.from),
  col('to', 'STRING', (r) => r.to),
  col('exactSide', 'STRING', (r) => r.exactSide),
  col('amount', 'DOUBLE', (r) => r.amount),
  col('strategy', 'STRING', (r) => r.strategy),
  col('routed', 'BOOLEAN', (r) => r.routed),
  col('amountIn', 'DOUBLE', (r) => r.amountIn),
  col('amountOut', 'DOUBLE', (r) => r.amountOut),
  col('effectiveRate', 'DOUBLE', (r) => r.effectiveRate, true),
  col('fillRatio', 'DOUBLE', (r) => r.fillRatio),
  col('impactBps', 'DOUBLE', (r) => r.impactBps, true),
  col('savingVsBestSingleBps', 'DOUBLE', (r) => r.savingVsBestSingleBps, true),
  col('path', 'STRING', (r) => r.path),
  col('bridge', 'STRING', (r) => r.bridge, true),
  col('venues', 'STRING', (r) => r.venues),
  col('legs', 'INT32', (r) => r.legs),
  col('unroutableReason', 'STRING', (r) => r.unroutableReason, true),
];

/** summary.parquet: one row per request, size and strategy (venue and path tallies as JSON text). */
export const CELL_COLUMNS: readonly Column<CellSummary>[] = [
  col('label', 'STRING', (c) => c.label),
  col('from', 'STRING', (c) => c.from),
  col('to', 'STRING', (c) => c.to),
  col('exactSide', 'STRING', (c) => c.exactSide),
  col('size', 'DOUBLE', (c) => c.size),
  col('strategy', 'STRING', (c) => c.strategy),
  col('quotes', 'INT32', (c) => c.quotes),
  col('routed', 'INT32', (c) => c.routed),
  col('fullFills', 'INT32', (c) => c.fullFills),
  col('meanFillRatio', 'DOUBLE', (c) => c.meanFillRatio),
  col('meanAmountIn', 'DOUBLE', (c) => c.meanAmountIn, true),
  col('meanAmountOut', 'DOUBLE', (c) => c.meanAmountOut, true),
  col('meanImpactBps', 'DOUBLE', (c) => c.meanImpactBps, true),
  col('meanSavingBps', 'DOUBLE', (c) => c.meanSavingBps, true),
  col('medianSavingBps', 'DOUBLE', (c) => c.medianSavingBps, true),
  col('p10SavingBps', 'DOUBLE', (c) => c.p10SavingBps, true),
  col('p90SavingBps', 'DOUBLE', (c) => c.p90SavingBps, true),
  col('beatBestSingle', 'DOUBLE', (c) => c.beatBestSingle, true),
  col('bridgeShare', 'DOUBLE', (c) => c.bridgeShare, true),
  col('venues', 'STRING', (c) => JSON.stringify(c.venues)),
  col('paths', 'STRING', (c) => JSON.stringify(c.paths)),
];
