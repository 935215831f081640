import { describe, expect, it } from 'vitest';
import { HashTree, leafHash, MemoryHashColumn, treePrefix, type Proved } from '@app/transparency';
import { encodeTlogEntry, parseTlogEntry, PREFIX_ITEMS_PER_ENTRY, type TlogPrefixPart } from './tlog-entry';
import { prefixMismatch, prefixParts, PrefixReader, type TlogPrefix } from './tlog-prefix';

const ORIGIN = 'route-service/test';

function value<T>(r: Proved<T>): T {
  if (!r.ok) throw new Error('missing node');
  return r.value;
}

function tree(n: number): HashTree {
  const t = new HashTree({ column: () => new MemoryHashColumn() });
  for (let i = 0; i < n; i++) t.append(leafHash(Buffer.from(`leaf ${i}`)));
  return t;
}

/** Each part through its JSON text and back, as a reader of the tlog gets it. */
const again = (parts: readonly TlogPrefixPart[]): TlogPrefixPart[] =>
  parts.map((p) => {
    const parsed = parseTlogEntry(encodeTlogEntry(p));
    if (!parsed.ok || parsed.entry.type !== 'tlog_prefix') throw new Error('not a prefix part');
    return parsed.entry;
  });

describe('tlog prefixes', () => {
  it('a prefix too large for one entry is cut into parts and read back whole, in order only', () => {
    const t = tree(20_000);
    const checkpoints = Array.from({ length: 9_000 }, (_, i) => i * 2 + 1);
    const prefix: TlogPrefix = {
      size: 20_000,
      checkpoints,
      nodes: value(treePrefix(t, 20_000, checkpoints)),
    };
    const parts = again(prefixParts(ORIGIN, prefix));
    expect(parts.length).toBe(Math.ceil((checkpoints.length + prefix.nodes.length) / PREFIX_ITEMS_PER_ENTRY));
    expect(parts.length).toBeGreaterThan(1);
    const reader = new PrefixReader();
    const read = parts.map((p) => reader.add(p));
    expect(read.slice(0, -1)).toEqual(parts.slice(0, -1).map(() => null));
    const whole = read[read.length - 1] as TlogPrefix;
    expect(whole.checkpoints).toEqual(checkpoints);
    expect(whole.nodes.map(([id, h]) => [id, h.toString('hex')])).toEqual(
      prefix.nodes.map(([id, h]) => [id, Buffer.from(h).toString('hex')]),
    );
    // A part out of place (a half-written prefix, or one reordered) builds nothing.
    const broken = new PrefixReader();
    expect(
      [parts[0]!, parts[2] ?? parts[1]!, parts[1]!].map((p) => broken.add(p)).every((r) => r === null),
    ).toBe(true);
    const cut = new PrefixReader();
    cut.add(parts[0]!);
    cut.interrupt();
    expect(parts.slice(1).map((p) => cut.add(p))).toEqual(parts.slice(1).map(() => null));
  });

  it('a prefix read after its leaves must fit them: a changed node or a size past the tree is named', () => {
    const t = tree(100);
    const prefix: TlogPrefix = { size: 64, checkpoints: [10, 33], nodes: value(treePrefix(t, 64, [10, 33])) };
    expect(prefixMismatch(t, prefix)).toBeNull();
    const [first, ...rest] = prefix.nodes;
    const changed = Buffer.from(first![1]);
    changed[0]! ^= 1;
    expect(prefixMismatch(t, { ...prefix, nodes: [[first![0], changed], ...rest] })).toMatch(
      /prefix of 64 leaves: node \d+\/\d+ is not the tree's/,
    );
    expect(prefixMismatch(tree(50), prefix)).toMatch(
      /prefix of 64 leaves where the tlog holds 50: leaves missing/,
    );
  });

  it('refuses a prefix entry with a node outside its size, a checkpoint at or past it, or too many items', () => {
    const base = { v: 1, type: 'tlog_prefix', origin: ORIGIN, size: 8, part: 0, parts: 1 };
    const h = Buffer.alloc(32).toString('base64');
    const parse = (o: object) => parseTlogEntry(JSON.stringify(o));
    expect(parse({ ...base, checkpoints: [3], nodes: [[3, 0, h]] }).ok).toBe(true);
    expect(parse({ ...base, checkpoints: [3], nodes: [[3, 1, h]] }).ok).toBe(false);
    expect(parse({ ...base, checkpoints: [8], nodes: [] }).ok).toBe(false);
    expect(parse({ ...base, part: 1, checkpoints: [], nodes: [] }).ok).toBe(false);
    const many = Array.from({ length: PREFIX_ITEMS_PER_ENTRY + 1 }, () => 1);
    expect(parse({ ...base, checkpoints: many, nodes: [] }).ok).toBe(false);
  });
});
