import { errorMessage } from '@app/retry';
import type { Input, InputContext } from './input';
import { L2_HEADER, L2Input } from './l2-input';
import { LineReader } from './line-reader';
import { NormalizedInput } from './normalized-input';
import { ImportUsageError } from './problems';
import { SnapshotInput, snapshotDepth } from './snapshot-input';

/** The input formats of `replay import --format`. */
export const IMPORT_FORMATS = ['tardis-csv', 'tardis-normalized'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * An input positioned at its first line of data, of the kind its first line says: the header of
 * an incremental_book_L2 or a book_snapshot_N CSV file, or a JSON object. Null for an empty file
 * (tardis.dev serves an empty file for a day without data). A first line of another kind stops
 * the import before anything is written.
 */
export async function openInput(
  format: ImportFormat,
  index: number,
  name: string,
  chunks: AsyncIterable<Uint8Array>,
  ctx: InputContext,
): Promise<Input | null> {
  const lines = new LineReader(chunks);
  const first = await firstLine(lines, format, name);
  if (first === null) return null;
  const head = first.length > 120 ? `${first.slice(0, 120)}...` : first;
  if (format === 'tardis-normalized') {
    if (!first.trimStart().startsWith('{'))
      throw new ImportUsageError(`${name}: not normalized JSON messages (its first line is '${head}')`);
    return new NormalizedInput(index, name, lines, ctx);
  }
  if (first === L2_HEADER) return new L2Input(index, name, lines, ctx);
  const depth = snapshotDepth(first);
  if (depth !== null) return new SnapshotInput(index, name, lines, ctx, depth);
  throw new ImportUsageError(
    `${name}: not a tardis.dev incremental_book_L2 or book_snapshot_N CSV file (its header is '${head}')`,
  );
}

/**
 * The first line that is not blank, without a byte order mark; null for an empty file. A CSV
 * reader is left after it (its header), a JSON one at it (its first message).
 */
export async function firstLine(
  lines: LineReader,
  format: ImportFormat,
  name: string,
): Promise<string | null> {
  let first: string | null = null;
  try {
    while (first === null && (lines.hasLine || (await lines.fill()))) {
      const nl = lines.lineEnd();
      const text = lines.text(nl);
      if (format === 'tardis-csv') lines.skip(nl);
      if (text.trim() !== '') first = text;
      else if (format !== 'tardis-csv') lines.skip(nl);
    }
  } catch (e) {
    throw new ImportUsageError(`${name}: cannot read it (${errorMessage(e)})`);
  }
  return first?.startsWith('\uFEFF') === true ? first.slice(1) : first;
}
