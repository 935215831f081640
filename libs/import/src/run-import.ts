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
import { openThreaded } from './threaded-input';

/** One input: its name (as problems name it) and its bytes, already decompressed. */
export interface ImportSource {
  readonly name: string;
  readonly chunks: AsyncIterable<Uint8Array>;
  /**
   * The file itself (not a pipe: it may be read twice), when there is one: an incremental_book_L2
   * file may then be read, inflated and parsed on a thread of its own (`threads`), and `chunks`
   * is only read for a file of another kind. `onRead` is told the bytes read (for progress).
   */
  readonly file?: { readonly path: string; readonly onRead: (bytesRead: number) => void };
}

export interface ImportOptions {
  readonly format: ImportFormat;
  readonly sources: readonly ImportSource[];
  readonly symbols: SymbolsFile | null;
  readonly markets: MarketsFile | null;
  readonly skipUnmapped: boolean;
  readonly strict: boolean;
  /**
   * Threads for incremental_book_L2 files given as `file` (one a file, for the first this many
   * such files; 0 or absent: every file is read on this thread). The output is the same.
   */
  readonly threads?: number;
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
  let threads = o.format === 'tardis-csv' ? (o.threads ?? 0) : 0;
  try {
    for (const [i, s] of o.sources.entries()) {
      let input: Input | null;
      const threaded =
        threads > 0 && s.file !== undefined
          ? await openThreaded(s.file.path, i, s.name, ctx, s.file.onRead)
          : 'other';
      if (threaded === 'empty') input = null;
      else if (threaded !== 'other') {
        threads--;
        input = threaded;
      } else input = await openInput(o.format, i, s.name, s.chunks, ctx);
      if (input === null) emptyFiles++;
      else inputs.push(input);
    }
    await mergeInputs(inputs, fold, o.onChunk ?? (() => undefined));
  } finally {
    // An import that stops early (--strict, an interrupt, a bad header) closes every file.
    await Promise.all(inputs.map((i) => i.close()));
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
