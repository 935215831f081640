import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BookCache } from '@app/books';
import { parseRecordLine, type EventRecord } from '@app/events';

export const ROOT = resolve(__dirname, '../../..');

/** `route-service replay import <args>` as a user runs it: the built CLI in its own process. */
export function importCli(args: readonly string[], cwd: string): { code: number | null; err: string[] } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/route-service.mjs'), 'replay', 'import', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, KAFKA_BROKERS: undefined },
    timeout: 60_000,
  });
  return { code: r.status, err: r.stderr.split('\n').filter((l) => l !== '') };
}

/** Every line of an import's output through the project's own strict parser (a refusal fails the test). */
export function readRecording(file: string): EventRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const p = parseRecordLine(l);
      if (!p.ok) throw new Error(`${file}: a record the parser refuses: ${p.error.message}`);
      return p.record;
    });
}

/**
 * The project's own fold (BookCache) moved through a recording instant by instant: `at(t)` applies
 * every record stamped at or before t (instants must not go back) and gives a book's levels.
 */
export class FoldAt {
  private readonly cache = new BookCache();
  private next = 0;

  constructor(private readonly records: readonly EventRecord[]) {}

  at(t: number, venue: string, symbol: string, depth = Infinity): [number, number][][] | undefined {
    while (this.next < this.records.length && this.records[this.next]!.receivedAt <= t)
      this.cache.apply(this.records[this.next++]!);
    const book = this.cache.book(venue, symbol);
    if (book === undefined || !book.inSync) return undefined;
    const levels = (s: typeof book.bids): [number, number][] => {
      const out: [number, number][] = [];
      for (let i = 0; i < Math.min(s.count, depth); i++) out.push([s.price(i), s.amount(i)]);
      return out;
    };
    return [levels(book.bids), levels(book.asks)];
  }
}
