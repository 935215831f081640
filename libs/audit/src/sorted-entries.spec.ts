import { TurnBudget } from '@app/event-log';
import { seeded } from '@app/synth';
import { describe, expect, it } from 'vitest';
import {
  ENTRY,
  compareEntries,
  entryBuffer,
  mergeSources,
  sortEntries,
  type EntrySource,
} from './sorted-entries';

/** `n` entries of random hashes (some repeated: a requestId journalled twice) and increasing offsets. */
function entries(n: number, seed: number, offsetBase = 0): Buffer {
  const rand = seeded(seed);
  const b = entryBuffer(n);
  for (let i = 0; i < n; i++) {
    const at = i * ENTRY;
    if (i > 0 && rand() < 0.1) b.copy(b, at, at - ENTRY, at - ENTRY + 8);
    else for (let k = 0; k < 8; k++) b[at + k] = Math.floor(rand() * 256);
    const offset = offsetBase + i * 4_294_967 + 7;
    b.writeUInt32BE(Math.floor(offset / 2 ** 32), at + 8);
    b.writeUInt32BE(offset >>> 0, at + 12);
  }
  return b;
}

/** What the index wrote before: the entries as byte strings, sorted by Buffer.compare. */
function bytewiseSorted(...bodies: Buffer[]): Buffer {
  const all: Buffer[] = [];
  for (const b of bodies) for (let i = 0; i < b.length; i += ENTRY) all.push(b.subarray(i, i + ENTRY));
  return Buffer.concat(all.sort((x, y) => Buffer.compare(x, y)));
}

function pages(body: Buffer, entriesPerPage: number): EntrySource {
  let at = 0;
  return {
    next: () => {
      if (at >= body.length) return Promise.resolve(null);
      const page = body.subarray(at, Math.min(body.length, at + entriesPerPage * ENTRY));
      at += page.length;
      return Promise.resolve(page);
    },
  };
}

describe('index entries sorted and merged in slices', () => {
  it('compares entries as their bytes do', () => {
    const b = entries(200, 1);
    for (let i = 0; i + 1 < 200; i++)
      expect(compareEntries(b, i, b, i + 1)).toBe(
        Math.sign(
          Buffer.compare(
            b.subarray(i * ENTRY, (i + 1) * ENTRY),
            b.subarray((i + 1) * ENTRY, (i + 2) * ENTRY),
          ),
        ),
      );
  });

  it('sorts to the same bytes as a bytewise sort, at every size', async () => {
    for (const n of [0, 1, 2, 3, 17, 1000, 5000]) {
      const body = entries(n, n + 3);
      const expected = bytewiseSorted(body);
      expect((await sortEntries(body, new TurnBudget())).equals(expected)).toBe(true);
    }
  });

  it('merges two sorted runs read in pages into pages of another size, the same bytes as sorting both', async () => {
    const a = await sortEntries(entries(3000, 8), new TurnBudget());
    const b = await sortEntries(entries(1234, 9, 2 ** 40), new TurnBudget());
    const out: Buffer[] = [];
    const count = await mergeSources(
      pages(a, 700),
      pages(b, 64),
      500,
      (page) => {
        out.push(Buffer.from(page));
        return Promise.resolve();
      },
      new TurnBudget(),
    );
    expect(count).toBe(4234);
    expect(out.every((p) => p.length <= 500 * ENTRY)).toBe(true);
    expect(Buffer.concat(out).equals(bytewiseSorted(a, b))).toBe(true);
  });
});
