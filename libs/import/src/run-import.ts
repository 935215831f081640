import { BookDirectory, type Unmapped } from './book-directory';
import type { Input } from './input';
import type { MarketsFile } from './markets-file';
import { mergeInputs, type OnChunk } from './merge';
import { NormalizedInput } from './normalized-input';
import { openInput, type ImportFormat } from './open-input';
import { Problems, type Problem, type ProblemKind } from './problems';
import { RecordOut } from './record-out';
import { SymbolMapper, type SymbolsFile, type VenueCatalog } from './symbol-map';
import { TardisFold } from './tardis-fold';

/** One input: its name (as problems name it) and its bytes, already decompressed. */
export interface ImportSource {
  readonly name: string;
  readonly chunks: AsyncIterable<Uint8Array>;
}

export interface ImportOptions {
  readonly format: ImportFormat;
  readonly sources: readonly ImportSource[];
  readonly symbols: SymbolsFile | null;
  readonly markets: MarketsFile | null;
  readonly skipUnmapped: boolean;
  readonly strict: boolean;
  readonly catalog: VenueCatalog;
  /** Receives the output bytes in order; they stay untouched until it calls `release`. */
  readonly write: (chunk: Buffer, release: () => void) => void;
  /** Told of each problem as it is found (with --strict the import throws StrictStop instead). */
  readonly report: (p: Problem) => void;
  /** Told after each chunk of input is used up; the import waits for what it returns (backpressure). */
  readonly onChunk?: OnChunk;
}

export interface ImportResult {
  /** False when symbols could not be mapped (and were not to be skipped) or two collided. */
  readonly ok: boolean;
  readonly unmapped: readonly Unmapped[];
  readonly collisions: readonly string[];
  /** Native (exchange symbol) and the venue and unified symbol it became. */
  readonly mapping: readonly { native: string; unified: string }[];
  readonly files: number;
  readonly emptyFiles: number;
  /** Data rows (CSV) or messages (JSON) read. */
  readonly rows: number;
  /** Normalized messages of other types (trades, quotes, ...), passed over. */
  readonly otherMessages: number;
  readonly records: number;
  readonly bytes: number;
  readonly books: number;
  readonly venues: number;
  readonly marketsWithTerms: number;
  readonly marketsWithoutTerms: number;
  readonly beforeSnapshot: number;
  readonly leftOut: number;
  readonly problems: Readonly<Record<ProblemKind, number>>;
  readonly problemSummary: string;
}

/**
 * Reads tardis.dev files into this project's records (docs/events.md) in one pass: every input
 * merged by local time, each book folded by tardis's rules (tardis-fold.ts), the output handed to
 * `write` as it is made. Throws ImportUsageError for an input it does not know, StrictStop with
 * --strict at the first bad row.
 */
export async function runImport(o: ImportOptions): Promise<ImportResult> {
  const problems = new Problems(o.strict, o.report);
  const out = new RecordOut(o.write);
  const books = new BookDirectory(
    new SymbolMapper(o.symbols, o.catalog),
    o.catalog,
    o.markets,
    problems,
    o.skipUnmapped,
  );
  const ctx = { problems, books };
  const inputs: Input[] = [];
  let emptyFiles = 0;
  const fold = new TardisFold(out, problems, () => books.failed);
  try {
    for (const [i, s] of o.sources.entries()) {
      const input = await openInput(o.format, i, s.name, s.chunks, ctx);
      if (input === null) emptyFiles++;
      else inputs.push(input);
    }
    await mergeInputs(inputs, fold, o.onChunk ?? (() => undefined));
  } finally {
    // An import that stops early (--strict, an interrupt, a bad header) closes every file.
    await Promise.all(inputs.map((i) => i.lines.close()));
  }
  fold.finish();
  out.flush();
  let rows = 0;
  let otherMessages = 0;
  for (const input of inputs) {
    rows += input.rows;
    if (input instanceof NormalizedInput) otherMessages += input.others;
  }
  return {
    ok: !books.failed,
    unmapped: books.unmapped,
    collisions: books.collisions,
    mapping: books.mapping,
    files: o.sources.length,
    emptyFiles,
    rows,
    otherMessages,
    records: out.records,
    bytes: out.written,
    books: books.mapping.length,
    venues: fold.venues.size,
    marketsWithTerms: books.withTerms,
    marketsWithoutTerms: books.withoutTerms,
    beforeSnapshot: fold.beforeSnapshot,
    leftOut: fold.leftOut,
    problems: problems.counts,
    problemSummary: problems.summary(),
  };
}
