import { parseRecordLine, type EventRecord } from '@app/events';
import { ccxtCatalog } from '../src/ccxt-catalog';
import type { MarketsFile } from '../src/markets-file';
import type { ImportFormat } from '../src/open-input';
import type { Problem } from '../src/problems';
import { runImport, type ImportResult } from '../src/run-import';
import type { SymbolsFile } from '../src/symbol-map';

export interface InMemoryImport {
  readonly result: ImportResult;
  /** The output exactly as written. */
  readonly text: string;
  /** Each output line through the project's own strict parser (a failure throws). */
  readonly records: EventRecord[];
  readonly problems: Problem[];
}

export interface InMemoryOptions {
  readonly format?: ImportFormat;
  readonly symbols?: SymbolsFile;
  readonly markets?: MarketsFile;
  readonly skipUnmapped?: boolean;
  readonly strict?: boolean;
  /** Bytes per chunk the files are cut into (to cross chunk boundaries mid-line). */
  readonly chunk?: number;
}

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield await Promise.resolve(bytes.subarray(i, i + size));
}

/** Runs the import over in-memory files with the real table catalog; parses the output strictly. */
export async function importTexts(
  files: readonly { name: string; text: string }[],
  o: InMemoryOptions = {},
): Promise<InMemoryImport> {
  const out: Buffer[] = [];
  const problems: Problem[] = [];
  const result = await runImport({
    format: o.format ?? 'tardis-csv',
    sources: files.map((f) => ({ name: f.name, chunks: chunks(f.text, o.chunk ?? 1 << 16) })),
    symbols: o.symbols ?? null,
    markets: o.markets ?? null,
    skipUnmapped: o.skipUnmapped ?? false,
    strict: o.strict ?? false,
    catalog: ccxtCatalog,
    write: (c, release) => {
      out.push(Buffer.from(c));
      release();
    },
    report: (p) => problems.push(p),
  });
  const text = Buffer.concat(out).toString('utf8');
  const records = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const p = parseRecordLine(l);
      if (!p.ok) throw new Error(`the import wrote a record the parser refuses: ${p.error.message}: ${l}`);
      return p.record;
    });
  return { result, text, records, problems };
}

export const L2 = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';

/** An incremental_book_L2 file from rows `[exchange, symbol, ts, local, snapshot, side, price, amount]`. */
export function l2File(rows: readonly (readonly (string | number | boolean)[])[]): string {
  return `${L2}\n${rows.map((r) => r.join(',')).join('\n')}\n`;
}
