// A min-tree over a fixed row of values that finds the first place at or after `from` holding a
// value below a bound in O(log n): the merged rule-aware walk (merged-ruled.ts) uses it to pass
// over untouched venues that cannot take what is left of the pinned amount.

/** Values at places 0..n-1 (+Infinity where none), with the first-below query. */
export class FirstBelow {
  private readonly size: number;
  private readonly tree: Float64Array;

  constructor(n: number) {
    let size = 1;
    while (size < n) size *= 2;
    this.size = size;
    this.tree = new Float64Array(2 * size).fill(Infinity);
  }

  /** Places this tree holds. */
  get capacity(): number {
    return this.size;
  }

  /** Set places 0..count-1 at once to `values[order[i]]` (the rest +Infinity). */
  fillFrom(count: number, values: Float64Array, order: Int32Array): void {
    const { tree, size } = this;
    tree.fill(Infinity, size + count);
    for (let i = 0; i < count; i++) tree[size + i] = values[order[i]!]!;
    for (let i = size - 1; i >= 1; i--) tree[i] = Math.min(tree[2 * i]!, tree[2 * i + 1]!);
  }

  set(place: number, value: number): void {
    let i = place + this.size;
    const tree = this.tree;
    tree[i] = value;
    for (i >>= 1; i >= 1; i >>= 1) {
      const m = Math.min(tree[2 * i]!, tree[2 * i + 1]!);
      if (tree[i] === m) return;
      tree[i] = m;
    }
  }

  /** The first place >= `from` whose value is below `bound`; -1 when none is. */
  first(from: number, bound: number): number {
    const { tree, size } = this;
    if (from >= size) return -1;
    let i = from + size;
    for (;;) {
      if (tree[i]! < bound) {
        while (i < size) {
          i *= 2;
          if (!(tree[i]! < bound)) i++;
        }
        return i - size;
      }
      // On to the subtree just right of this one: climb while this is a right child.
      while ((i & 1) === 1) {
        if (i === 1) return -1;
        i >>= 1;
      }
      i++;
    }
  }
}
