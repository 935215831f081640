import type { SharedTopic } from '@app/event-log';
import { decodeHead, type RunHead } from './run-codec';

/** Records read from the runs topic per request. */
const READ = 2048;

interface Latest {
  readonly offset: number;
  /** False for a tombstone. */
  readonly live: boolean;
  /** When this process first saw it (performance.now()): claims expire by it. */
  readonly seenAt: number;
}

/** A live claim on a run: who is building it, and how long ago this process first saw the claim. */
export interface Claim {
  readonly writer: string;
  readonly offset: number;
  readonly ageMs: number;
}

/**
 * What the runs topic holds, read incrementally: the latest record of each key (what compaction
 * keeps), so the live heads per partition and the claims on runs being built.
 */
export class RunsView {
  private next = 0;
  private latestOf = new Map<string, Latest>();
  private heads = new Map<number, Map<string, RunHead>>();

  constructor(private readonly topic: SharedTopic) {}

  /** Read what was appended since the last refresh. */
  async refresh(): Promise<void> {
    const end = await this.topic.end();
    if (end < this.next) {
      // The topic was deleted and made again: start over.
      this.next = 0;
      this.latestOf = new Map();
      this.heads = new Map();
    }
    while (this.next < end) {
      const got = await this.topic.read(this.next, READ);
      if (got.length === 0) break;
      const now = performance.now();
      for (const r of got) {
        this.latestOf.set(r.key, { offset: r.offset, live: r.value !== null, seenAt: now });
        if (r.key.startsWith('run/')) this.noteHead(r.key, r.value);
      }
      this.next = got[got.length - 1]!.offset + 1;
    }
  }

  /** The latest record's offset of a key, or null when none was seen. */
  offsetOf(key: string): number | null {
    return this.latestOf.get(key)?.offset ?? null;
  }

  /** The live heads of a partition's runs that chain from offset 0 without a gap, widest first at each step. */
  chain(partition: number): RunHead[] {
    const byFrom = new Map<number, RunHead>();
    for (const h of this.heads.get(partition)?.values() ?? [])
      if ((byFrom.get(h.from)?.to ?? -1) < h.to) byFrom.set(h.from, h);
    const chain: RunHead[] = [];
    for (let at = 0, h = byFrom.get(0); h !== undefined; at = h.to, h = byFrom.get(at)) chain.push(h);
    return chain;
  }

  /** Live claims on the run [from, to) of a partition, oldest record first. */
  claims(partition: number, from: number, to: number): Claim[] {
    const prefix = `claim/${partition}/${from}-${to}/`;
    const now = performance.now();
    const out: Claim[] = [];
    for (const [key, l] of this.latestOf)
      if (key.startsWith(prefix) && l.live)
        out.push({ writer: key.slice(prefix.length), offset: l.offset, ageMs: now - l.seenAt });
    return out.sort((a, b) => a.offset - b.offset);
  }

  private noteHead(key: string, value: Buffer | null): void {
    const m = /^run\/(\d+)\//.exec(key);
    if (m === null) return;
    const p = Number(m[1]);
    let heads = this.heads.get(p);
    if (heads === undefined) this.heads.set(p, (heads = new Map<string, RunHead>()));
    const head = value === null ? null : decodeHead(key, value);
    // A tombstone, or a record that is not a whole head, leaves the run out.
    if (head === null) heads.delete(key);
    else heads.set(key, head);
  }
}
