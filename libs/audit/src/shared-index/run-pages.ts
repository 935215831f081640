import type { SharedTopic } from '@app/event-log';
import { ENTRY } from '../index-runs';
import { decodePage, encodePage, pageKey, PAGE, type PageRef, type RunHead } from './run-codec';

/** Page records per append (each page 64 KiB): one produce request stays under the broker's 1 MB. */
const PAGES_PER_APPEND = 12;

/** The sorted entries of a run's i-th page, or null when the pages topic no longer holds it as written. */
export async function readPage(pages: SharedTopic, head: RunHead, i: number): Promise<Buffer | null> {
  const ref = head.pages[i]!;
  const [got] = await pages.read(ref.offset, 1);
  if (got === undefined || got.offset !== ref.offset || got.key !== pageKey(head, i)) return null;
  return decodePage(got.value, ref.count);
}

/** Indices of the pages that may hold entries of `hash`: from the last page starting below it. */
function candidatePages(pages: readonly PageRef[], hash: Buffer): number[] {
  let lo = 0;
  let hi = pages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(pages[mid]!.first, hash) < 0) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = Math.max(0, lo - 1); i < pages.length && Buffer.compare(pages[i]!.first, hash) <= 0; i++)
    out.push(i);
  return out;
}

/** Journal offsets stored under `hash` in a page's sorted entries (binary search). */
function searchPage(body: Buffer, hash: Buffer): number[] {
  const n = body.length / ENTRY;
  const at = (i: number): Buffer => body.subarray(i * ENTRY, i * ENTRY + 8);
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(at(mid), hash) < 0) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < n && at(i).equals(hash); i++) out.push(Number(body.readBigUInt64BE(i * ENTRY + 8)));
  return out;
}

/**
 * Journal offsets a run stores under `hash` (usually one page read), or null when a page it
 * names is not in the pages topic as written (merged away and compacted): the caller scans the
 * run's range of the journal instead.
 */
export async function searchRun(pages: SharedTopic, head: RunHead, hash: Buffer): Promise<number[] | null> {
  const out: number[] = [];
  for (const i of candidatePages(head.pages, hash)) {
    const body = await readPage(pages, head, i);
    if (body === null) return null;
    out.push(...searchPage(body, hash));
  }
  return out;
}

/** Every entry of a run in order, page by page; throws when a page is missing. */
export async function* runEntries(pages: SharedTopic, head: RunHead): AsyncGenerator<Buffer> {
  for (let i = 0; i < head.pages.length; i++) {
    const body = await readPage(pages, head, i);
    if (body === null) throw new MissingPage(`${pageKey(head, i)} is not in ${pages.name} as written`);
    yield body;
  }
}

export class MissingPage extends Error {}

/**
 * Writes a run's sorted entries as pages of PAGE entries, appended a few at a time; `pages()`
 * gives their references once `finish()` has appended the last.
 */
export class PageWriter {
  private readonly refs: PageRef[] = [];
  private pending: Buffer[] = [];
  private part: Buffer[] = [];
  private partEntries = 0;

  constructor(
    private readonly topic: SharedTopic,
    private readonly head: Pick<RunHead, 'partition' | 'from' | 'to' | 'writer'>,
  ) {}

  /** Add sorted entries (a multiple of ENTRY bytes), after those added before. */
  async add(entries: Buffer): Promise<void> {
    for (let at = 0; at < entries.length;) {
      const take = Math.min(entries.length - at, (PAGE - this.partEntries) * ENTRY);
      this.part.push(entries.subarray(at, at + take));
      this.partEntries += take / ENTRY;
      at += take;
      if (this.partEntries === PAGE) this.closePage();
      if (this.pending.length >= PAGES_PER_APPEND) await this.flush();
    }
  }

  async finish(): Promise<PageRef[]> {
    if (this.partEntries > 0) this.closePage();
    await this.flush();
    return this.refs;
  }

  /** Keys of every page written so far (to delete them if the run is abandoned). */
  keys(): string[] {
    return this.refs.map((_, i) => pageKey(this.head, i));
  }

  private closePage(): void {
    this.pending.push(Buffer.concat(this.part));
    this.part = [];
    this.partEntries = 0;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const bodies = this.pending;
    this.pending = [];
    const first = this.refs.length;
    const offsets = await this.topic.append(
      bodies.map((b, k) => ({ key: pageKey(this.head, first + k), value: encodePage(b) })),
    );
    bodies.forEach((b, k) =>
      this.refs.push({ first: Buffer.from(b.subarray(0, 8)), offset: offsets[k]!, count: b.length / ENTRY }),
    );
  }
}
