import { ENTRY } from '../index-runs';
import { PAGE } from './run-codec';

/** A cursor over a run's pages of sorted entries. */
class Cursor {
  private page: Buffer | null = null;
  private at = 0;

  constructor(private readonly pages: AsyncIterator<Buffer>) {}

  /** Load the next non-empty page when this one is used up; false at the run's end. */
  async ready(): Promise<boolean> {
    while (this.page === null || this.at >= this.page.length) {
      const next = await this.pages.next();
      if (next.done === true) return false;
      this.page = next.value;
      this.at = 0;
    }
    return true;
  }

  /** The current entry (valid after ready() said true). */
  head(): Buffer {
    return this.page!.subarray(this.at, this.at + ENTRY);
  }

  /** Step to the next entry; false when the page is used up (call ready() then). */
  advance(): boolean {
    this.at += ENTRY;
    return this.at < this.page!.length;
  }
}

/**
 * Merge two runs' sorted entries (page by page, so memory stays a few pages whatever the runs'
 * size) and hand the merged entries to `out` a page at a time. Returns the number of entries.
 */
export async function mergeRuns(
  a: AsyncIterator<Buffer>,
  b: AsyncIterator<Buffer>,
  out: (entries: Buffer) => Promise<void>,
): Promise<number> {
  const x = new Cursor(a);
  const y = new Cursor(b);
  const buf = Buffer.alloc(PAGE * ENTRY);
  let k = 0;
  let count = 0;
  let hasX = await x.ready();
  let hasY = await y.ready();
  while (hasX || hasY) {
    const takeX = hasX && (!hasY || Buffer.compare(x.head(), y.head()) <= 0);
    const from = takeX ? x : y;
    from.head().copy(buf, k);
    k += ENTRY;
    count++;
    // Awaited only at page ends: a microtask per entry would cost more than the merge.
    if (!from.advance()) {
      if (takeX) hasX = await x.ready();
      else hasY = await y.ready();
    }
    if (k === buf.length) {
      await out(Buffer.from(buf));
      k = 0;
    }
  }
  if (k > 0) await out(Buffer.from(buf.subarray(0, k)));
  return count;
}
