import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BookCache } from '@app/books';
import { parseRecord } from '@app/events';

/** The demo recording (replay-data/: 60 venues, order rules on every market). */
const DEMO_RECORDING = resolve(__dirname, '../../replay-data/synthetic-60-venues.jsonl');

/** The demo recording folded into a book cache, and its last instant (for specs that may read files). */
export function demoRecording(): { books: BookCache; now: number } {
  const books = new BookCache();
  let now = 0;
  for (const line of readFileSync(DEMO_RECORDING, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = parseRecord(JSON.parse(line));
    if (!parsed.ok) throw new Error(`replay-data: ${line.slice(0, 80)}`);
    books.apply(parsed.record);
    now = Math.max(now, parsed.record.receivedAt);
  }
  return { books, now };
}
