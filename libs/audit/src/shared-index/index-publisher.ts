import { randomBytes } from 'node:crypto';
import { nextTurn, TurnBudget, type EventLog } from '@app/event-log';
import { ENTRY, keyHash } from '../index-runs';
import { entryBuffer, mergeSources, sortEntries, type EntrySource } from '../sorted-entries';
import { BLOCK, claimKey, encodeHead, levelOf, PAGE, pageKey, runKey, type RunHead } from './run-codec';
import { MissingPage, PageWriter, runEntries } from './run-pages';
import { RunsView } from './runs-view';
import type { SharedIndexTopics } from './shared-index';

/** Entries read from the journal per request while building a level-0 run. */
const CHUNK = 8192;

/** One run to build: a level-0 run read from the journal, or the merge of two adjacent runs. */
interface Job {
  readonly partition: number;
  readonly from: number;
  readonly to: number;
  readonly children: readonly RunHead[];
}

export interface SharedIndexPublisherOptions {
  /** This publisher's id, 16 hex digits (the keys of the pages it writes name it); random by default. */
  readonly writer?: string;
}

/**
 * Publishes the journal's requestId index to the log's shared topics, for auditors anywhere
 * (SharedJournalIndex reads it). Every partition of `quotes` is indexed as a binary counter of
 * canonical runs: each complete block of BLOCK offsets becomes a level-0 run, and two adjacent
 * runs of one level merge into one of the next, so a partition of n entries has at most
 * log2(n / BLOCK) + 1 runs and each entry is rewritten once per level.
 *
 * Every API replica runs one; a run is built by one of them: a publisher appends a claim on the
 * run and builds it only when its claim is the oldest live one (a claim not followed by the run
 * within claimTtl is taken as abandoned). Should two build the same run anyway (a claim taken
 * over from a slow publisher), both runs are whole and the same; the reader takes the latest
 * head, and the other publisher deletes its own pages once it sees its head superseded. A run's
 * pages are keyed by their publisher, so one publisher's pages never replace another's.
 */
export class SharedIndexPublisher {
  private readonly view: RunsView;
  private readonly writer: string;
  /** Heads this publisher wrote that are still current: their offsets in the runs topic. */
  private readonly mine = new Map<string, { offset: number; head: RunHead }>();
  /** Counters for tests and logs. */
  readonly stats = { blocks: 0, merges: 0, yielded: 0, superseded: 0, rebuilt: 0, abandoned: 0 };
  private halted = false;

  constructor(
    private readonly log: EventLog,
    private readonly topics: SharedIndexTopics,
    options: SharedIndexPublisherOptions = {},
  ) {
    this.writer = options.writer ?? randomBytes(8).toString('hex');
    if (!/^[0-9a-f]{16}$/.test(this.writer))
      throw new Error(`writer must be 16 hex digits, got ${this.writer}`);
    this.view = new RunsView(topics.runs);
  }

  /** Stop at the next page: the run being built is abandoned (its pages and claim deleted). */
  halt(): void {
    this.halted = true;
  }

  /** Build every run the journal's complete blocks call for (those no other publisher is building). */
  async catchUp(): Promise<number> {
    if (this.halted) return 0;
    await this.view.refresh();
    await this.dropSuperseded();
    const ends = await this.log.highWatermarks(this.topics.journal);
    let built = 0;
    for (const [partition, end] of ends.entries()) {
      for (let job = nextJob(this.view.chain(partition), partition, end); job !== null;) {
        if (this.halted || !(await this.claim(job))) break;
        if (await this.build(job)) built++;
        // The API publishes in the background: let its requests run between runs.
        await nextTurn();
        job = nextJob(this.view.chain(partition), partition, end);
      }
    }
    return built;
  }

  /** Append a claim on the job's run; true when it is the oldest live claim (this publisher builds it). */
  private async claim(job: Job): Promise<boolean> {
    const ttl = claimTtlMs(job.to - job.from);
    const live = (): { writer: string }[] =>
      this.view.claims(job.partition, job.from, job.to).filter((c) => c.ageMs < ttl);
    if (live().some((c) => c.writer !== this.writer)) {
      this.stats.yielded++;
      return false;
    }
    const key = claimKey(job.partition, job.from, job.to, this.writer);
    await this.topics.runs.append([{ key, value: Buffer.from(this.writer, 'hex') }]);
    await this.view.refresh();
    const built = this.view.chain(job.partition).some((r) => r.from <= job.from && r.to >= job.to);
    if (!built && live()[0]?.writer === this.writer) return true;
    await this.topics.runs.append([{ key, value: null }]);
    this.stats.yielded++;
    return false;
  }

  /** Build the job's run; false when it was abandoned (halted, or a child's page was gone). */
  private async build(job: Job): Promise<boolean> {
    const head = { partition: job.partition, from: job.from, to: job.to, writer: this.writer };
    const pages = new PageWriter(this.topics.pages, head);
    const add = (entries: Buffer): Promise<void> => {
      if (this.halted) throw new Halted();
      return pages.add(entries);
    };
    let last: RunHead['last'] = null;
    let count = 0;
    try {
      if (job.children.length === 0) ({ last, count } = await this.writeBlock(job, add));
      else {
        const [a, b] = job.children as [RunHead, RunHead];
        const pagesOf = (head: RunHead): EntrySource => {
          const it = runEntries(this.topics.pages, head);
          return {
            next: async () => {
              const page = await it.next();
              return page.done === true ? null : page.value;
            },
          };
        };
        // The page writer keeps what it is given until its page is full: a copy of each page.
        count = await mergeSources(
          pagesOf(a),
          pagesOf(b),
          PAGE,
          (p) => add(Buffer.from(p)),
          new TurnBudget(),
        );
        last = b.last ?? a.last;
      }
    } catch (e) {
      if (!(e instanceof MissingPage) && !(e instanceof Halted)) throw e;
      await this.topics.pages.append(pages.keys().map((key) => ({ key, value: null })));
      const abandon = [{ key: claimKey(job.partition, job.from, job.to, this.writer), value: null }];
      // A child's page is gone: drop that child too, so its range is built again from the journal.
      if (e instanceof MissingPage)
        abandon.push(...job.children.map((c) => ({ key: runKey(c.partition, c.from, c.to), value: null })));
      await this.topics.runs.append(abandon);
      if (e instanceof MissingPage) this.stats.rebuilt++;
      else this.stats.abandoned++;
      await this.view.refresh();
      return false;
    }
    const run: RunHead = { ...head, count, last, pages: await pages.finish() };
    const key = runKey(job.partition, job.from, job.to);
    const [offset] = await this.topics.runs.append([{ key, value: encodeHead(run) }]);
    this.mine.set(key, { offset: offset!, head: run });
    // The run is in place: its children, their pages and the claims on it go.
    const claims = this.view.claims(job.partition, job.from, job.to);
    await this.topics.runs.append([
      ...job.children.map((c) => ({ key: runKey(c.partition, c.from, c.to), value: null })),
      ...claims.map((c) => ({ key: claimKey(job.partition, job.from, job.to, c.writer), value: null })),
    ]);
    await this.topics.pages.append(
      job.children.flatMap((c) => c.pages.map((_, i) => ({ key: pageKey(c, i), value: null }))),
    );
    for (const c of job.children) this.mine.delete(runKey(c.partition, c.from, c.to));
    if (job.children.length === 0) this.stats.blocks++;
    else this.stats.merges++;
    await this.view.refresh();
    return true;
  }

  /** Read a block of the journal, sort its (key hash, offset) entries and write them as pages. */
  private async writeBlock(
    job: Job,
    add: (entries: Buffer) => Promise<void>,
  ): Promise<{ last: RunHead['last']; count: number }> {
    const entries = entryBuffer(job.to - job.from);
    let n = 0;
    let last: RunHead['last'] = null;
    for (let at = job.from; at < job.to;) {
      const chunk = await this.log.read(this.topics.journal, job.partition, at, Math.min(CHUNK, job.to - at));
      if (chunk.length === 0) break;
      for (const e of chunk) {
        if (e.offset >= job.to) break;
        const hash = keyHash(e.key);
        hash.copy(entries, n * ENTRY);
        entries.writeUInt32BE(Math.floor(e.offset / 2 ** 32), n * ENTRY + 8);
        entries.writeUInt32BE(e.offset >>> 0, n * ENTRY + 12);
        n++;
        last = { offset: e.offset, hash };
      }
      at = chunk[chunk.length - 1]!.offset + 1;
    }
    await add(await sortEntries(entries.subarray(0, n * ENTRY), new TurnBudget()));
    return { last, count: n };
  }

  /** Delete the pages of this publisher's heads that a later record of the same run replaced. */
  private async dropSuperseded(): Promise<void> {
    for (const [key, { offset, head }] of this.mine) {
      const latest = this.view.offsetOf(key);
      if (latest === null || latest <= offset) continue;
      await this.topics.pages.append(head.pages.map((_, i) => ({ key: pageKey(head, i), value: null })));
      this.mine.delete(key);
      this.stats.superseded++;
    }
  }
}

class Halted extends Error {}

/** The next run a partition's chain calls for: a merge of two adjacent runs of one level, else the next block. */
export function nextJob(chain: readonly RunHead[], partition: number, end: number): Job | null {
  for (let i = 0; i + 1 < chain.length; i++) {
    const a = chain[i]!;
    const b = chain[i + 1]!;
    const span = a.to - a.from;
    if (b.to - b.from === span && a.from % (2 * span) === 0 && levelOf(2 * span) !== null)
      return { partition, from: a.from, to: b.to, children: [a, b] };
  }
  const at = chain.length === 0 ? 0 : chain[chain.length - 1]!.to;
  return at + BLOCK <= end ? { partition, from: at, to: at + BLOCK, children: [] } : null;
}

/** How long a claim holds before others take it as abandoned: a minute, plus time for the run's size. */
export function claimTtlMs(span: number): number {
  return 60_000 + (span / BLOCK) * 100;
}
