import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { byCodeUnit, parseRecordLine, type EventRecord } from '@app/events';

/** A file, or every *.jsonl of a directory sorted by name (the --replay contract). */
export function replayFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const names = readdirSync(path)
    .filter((n) => n.endsWith('.jsonl'))
    .sort(byCodeUnit);
  if (names.length === 0) throw new Error(`no *.jsonl files in ${path}`);
  return names.map((n) => join(path, n));
}

/** A line that could not be read as a record: skipped, never applied in part (events.md). */
export interface SkippedLine {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

const CHUNK_BYTES = 1 << 20;

/**
 * One JSON Lines file read 1 MiB at a time: the records of the next few lines on each call, so a
 * recording of any length costs one chunk of memory, and parsing stays in plain loops. The bytes
 * go through one streaming UTF-8 decoder (node's StringDecoder), so a multi-byte character split
 * by a chunk boundary is decoded whole.
 */
class LineRecords {
  private fd: number;
  private rest = '';
  private lineNo = 0;
  private ended = false;
  private readonly buf = Buffer.allocUnsafe(CHUNK_BYTES);
  /** Holds back the bytes of a UTF-8 character cut by the chunk's end until the next chunk. */
  private readonly utf8 = new StringDecoder('utf8');
  private pending: EventRecord[] = [];
  private at = 0;

  constructor(
    readonly file: string,
    private readonly onSkip: (s: SkippedLine) => void,
  ) {
    this.fd = openSync(file, 'r');
  }

  /** The next record without consuming it, or null at the end of the file. */
  peek(): EventRecord | null {
    while (this.at === this.pending.length) {
      if (this.ended) return null;
      this.fill();
    }
    return this.pending[this.at]!;
  }

  shift(): void {
    this.at++;
  }

  private fill(): void {
    this.pending = [];
    this.at = 0;
    const n = readSync(this.fd, this.buf, 0, CHUNK_BYTES, null);
    // Decoding each chunk on its own would turn a character split across two chunks into U+FFFD.
    let text = this.rest + (n === 0 ? this.utf8.end() : this.utf8.write(this.buf.subarray(0, n)));
    if (n === 0) {
      this.ended = true;
      closeSync(this.fd);
      this.fd = -1;
    } else {
      // A chunk may end inside a line: keep the partial line for the next one.
      const cut = text.lastIndexOf('\n');
      this.rest = cut < 0 ? text : text.slice(cut + 1);
      text = cut < 0 ? '' : text.slice(0, cut);
    }
    for (let pos = 0; pos < text.length;) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0) nl = text.length;
      this.lineNo++;
      const line = text.slice(pos, nl).trim();
      pos = nl + 1;
      if (line === '') continue;
      const parsed = parseRecordLine(line);
      if (parsed.ok) this.pending.push(parsed.record);
      else this.onSkip({ file: this.file, line: this.lineNo, problem: parsed.error.message });
    }
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/**
 * The records of `files` merged by receivedAt (ties: earlier file, then line order), up to `max`
 * a call; [] at the end. Each file is read in chunks, so memory holds a chunk per file, not the
 * recording.
 */
export class RecordingReader {
  private readonly files: LineRecords[];

  constructor(files: readonly string[], onSkip: (s: SkippedLine) => void) {
    this.files = files.map((f) => new LineRecords(f, onSkip));
  }

  take(max: number): EventRecord[] {
    const out: EventRecord[] = [];
    const files = this.files;
    while (out.length < max) {
      let best: LineRecords | null = null;
      let bestAt = Infinity;
      for (const f of files) {
        const r = f.peek();
        if (r !== null && r.receivedAt < bestAt) {
          best = f;
          bestAt = r.receivedAt;
        }
      }
      if (best === null) break;
      out.push(best.peek()!);
      best.shift();
    }
    return out;
  }

  close(): void {
    for (const f of this.files) f.close();
  }
}
