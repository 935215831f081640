import type { TopicName } from '@app/events';
import { partitionFor, type EventLog, type LogEntry, type SharedTopic } from '@app/event-log';
import { keyHash } from '../index-runs';
import type { KeyEntries, KeyLookup } from '../key-lookup';
import type { RunHead } from './run-codec';
import { searchRun } from './run-pages';
import { RunsView } from './runs-view';

/** Entries read from the journal per request while scanning what the index does not cover. */
const CHUNK = 8192;
/** A long-lived reader reads the runs topic again at most this often. */
const REFRESH_MS = 1000;

/** A journal topic and the two shared topics of its index: run heads (small, read whole) and pages (read by offset). */
export interface SharedIndexTopics {
  readonly journal: TopicName;
  readonly runs: SharedTopic;
  readonly pages: SharedTopic;
}

/** The shared index topics of `journal` (`<journal>.index-runs`, `<journal>.index-pages`); null on a log without shared topics. */
export function sharedIndexTopics(log: EventLog, journal: TopicName = 'quotes'): SharedIndexTopics | null {
  const runs = log.sharedTopic(journal, 'index-runs');
  const pages = log.sharedTopic(journal, 'index-pages');
  return runs === null || pages === null ? null : { journal, runs, pages };
}

/**
 * The requestId index the API replicas publish to the log's shared topics (SharedIndexPublisher),
 * read from any machine that reaches the brokers: per run one page read (a binary search over its
 * head's page list, then over the page), so O(log n) reads for n journal entries, then the
 * journal's entries past the runs (the unindexed tail, under BLOCK while the publishers keep up)
 * compared key by key. Whatever the index cannot answer for (no runs yet, a run whose page was
 * merged away, runs of another journal under the same topic names) is read from the journal
 * itself: the answer is the same either way, only slower.
 */
export class SharedJournalIndex implements KeyLookup {
  private readonly view: RunsView;
  private refreshedAt = -Infinity;
  /** Whether a run's last entry is the journal's, by partition and offset (checked once). */
  private readonly checked = new Map<string, Promise<boolean>>();

  constructor(
    private readonly log: EventLog,
    private readonly topics: SharedIndexTopics,
  ) {
    this.view = new RunsView(topics.runs);
  }

  /** The journal topic it indexes. */
  get topic(): TopicName {
    return this.topics.journal;
  }

  async entries(key: string): Promise<KeyEntries> {
    const partition = partitionFor(key, await this.log.partitions(this.topics.journal));
    const end = (await this.log.highWatermarks(this.topics.journal))[partition] ?? 0;
    if (performance.now() - this.refreshedAt > REFRESH_MS) {
      await this.view.refresh();
      this.refreshedAt = performance.now();
    }
    const chain = await this.usableChain(partition, end);
    const hash = keyHash(key);
    const found = await Promise.all(chain.map((run) => searchRun(this.topics.pages, run, hash)));
    const offsets = new Set<number>();
    const ranges: [number, number][] = [];
    found.forEach((got, i) => {
      if (got === null) ranges.push([chain[i]!.from, chain[i]!.to]);
      else for (const o of got) offsets.add(o);
    });
    const indexedTo = chain.length === 0 ? 0 : chain[chain.length - 1]!.to;
    ranges.push([indexedTo, end]);
    const out: LogEntry[] = [];
    for (const offset of offsets) {
      if (offset >= end) continue;
      const [entry] = await this.log.read(this.topics.journal, partition, offset, 1);
      // A hash collision, or an entry gone to retention, is not this key's.
      if (entry !== undefined && entry.offset === offset && entry.key === key) out.push(entry);
    }
    let scanned = 0;
    for (const [from, to] of ranges)
      for (let at = from; at < to;) {
        const chunk = await this.log.read(this.topics.journal, partition, at, Math.min(CHUNK, to - at));
        if (chunk.length === 0) break;
        for (const e of chunk) {
          if (e.offset >= to) break;
          scanned++;
          if (e.key === key) out.push(e);
        }
        at = chunk[chunk.length - 1]!.offset + 1;
      }
    out.sort((a, b) => a.offset - b.offset);
    return { partition, entries: out, scanned, runs: chain.length - ranges.length + 1 };
  }

  /**
   * The partition's chain of runs if it indexes this journal: none past its end (runs of an
   * older topic of the same name) and the newest run's last entry is the journal's own.
   */
  private async usableChain(partition: number, end: number): Promise<RunHead[]> {
    const chain = this.view.chain(partition);
    if (chain.length === 0) return chain;
    if (chain[chain.length - 1]!.to > end) return [];
    const last = chain.reduce<RunHead['last']>((l, r) => r.last ?? l, null);
    if (last === null) return chain;
    let ok = this.checked.get(`${partition}@${last.offset}`);
    if (ok === undefined) {
      ok = this.log.read(this.topics.journal, partition, last.offset, 1).then(([e]) =>
        // Gone to retention: nothing left to contradict the index.
        e === undefined || e.offset !== last.offset ? true : keyHash(e.key).equals(last.hash),
      );
      this.checked.set(`${partition}@${last.offset}`, ok);
    }
    return (await ok) ? chain : [];
  }
}
