/** One generation: keys in order of arrival, indexed in a Map only once someone looks one up. */
interface Generation {
  keys: string[];
  leaves: number[];
  map: Map<string, number> | null;
  /** Keys set, a reused one counted again. */
  count: number;
}

const empty = (): Generation => ({ keys: [], leaves: [], map: null, count: 0 });

/**
 * Leaf index by journal key for the newest keys only: what the proof endpoint can look up in memory
 * whatever the traffic (about 100 bytes a key). Two generations of max/2 keys each: when the newer
 * fills, the older is dropped whole, so the newest max/2 to max keys are held, each set O(1).
 * (Evicting the oldest key of one Map one by one is not O(1) in V8: its iterator walks the holes
 * the earlier deletions left.) A generation is indexed in a Map at its first lookup: a restart
 * sets a key per leaf of the whole log and looks up none, so most generations are dropped unindexed
 * (a Map set cost about a third of a million-leaf restart). An older quote is proven by an auditor
 * from the log itself.
 */
export class RecentKeys {
  private newer = empty();
  private older = empty();

  constructor(readonly max: number) {}

  /** The key's newest leaf (a reused key counts as new: a later arrival wins). */
  set(key: string, leafIndex: number): void {
    const g = this.newer;
    if (g.map !== null) g.map.set(key, leafIndex);
    else {
      g.keys.push(key);
      g.leaves.push(leafIndex);
    }
    if (++g.count >= Math.max(1, Math.floor(this.max / 2))) {
      this.older = g;
      this.newer = empty();
    }
  }

  get(key: string): number | undefined {
    return indexed(this.newer).get(key) ?? indexed(this.older).get(key);
  }
}

/**
 * The key as a string of its own: a key scanned from a tlog entry is a slice of the entry's whole
 * text in V8, and held in the lookup it would keep that text alive (about 70 bytes a leaf). Keys
 * come from UTF-8 text (no lone surrogates), so the round trip gives the same string.
 */
const own = (key: string): string => Buffer.from(key, 'utf8').toString('utf8');

function indexed(g: Generation): Map<string, number> {
  if (g.map === null) {
    g.map = new Map();
    for (let i = 0; i < g.keys.length; i++) g.map.set(own(g.keys[i]!), g.leaves[i]!);
    g.keys = [];
    g.leaves = [];
  }
  return g.map;
}

/** Keys the service keeps for proofs (between 125,000 and 250,000 of the newest): about 25 MB at most. */
export const RECENT_KEYS = 250_000;
