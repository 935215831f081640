import {
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedLog, logSink } from '@app/event-log';
import { bookHashes } from '../kafka/book-hashes';
import { flipByte, rawFrames, segments, shiftIndexEntry } from './support/disk';
import { expectedFold, LAYOUT, moreBooks, readFrames, serve, SPEC, writeFixture } from './support/fixture';

// Issue 15: real log files damaged in place, then opened as the API opens them. Every outcome is
// checked against an independent fold of what was acknowledged minus what the damage destroyed:
// no other record lost, none applied twice, nothing wrong served, no silent hang or cut.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
async function fixture(): Promise<Awaited<ReturnType<typeof writeFixture>>> {
  const f = await writeFixture('storage-damage-');
  dirs.push(f.dir);
  return f;
}

/** The books partition with the most segments (the damage goes there). */
function busiest(dir: string): number {
  let best = 0;
  for (let p = 1; p < LAYOUT.partitions.books; p++)
    if (segments(join(dir, 'books', String(p))).length > segments(join(dir, 'books', String(best))).length)
      best = p;
  return best;
}

describe('embedded log damage (real files)', () => {
  it('a flipped byte in the middle of a segment: exactly that entry is skipped, named and counted; a writer keeps the rest', async () => {
    const { dir, frames } = await fixture();
    const p = busiest(dir);
    const list = frames[`books/${p}`]!;
    const victim = list[Math.floor(list.length / 3)]!;
    flipByte(victim.file, victim.position + 30);
    const s = await serve(dir);
    expect(bookHashes(s.feed.cache)).toEqual(
      bookHashes(expectedFold(frames, new Set([`books/${p}@${victim.offset}`]))),
    );
    const h = s.health();
    expect(h.damagedEntries).toBe(1);
    expect(h.damage[0]).toMatchObject({
      topic: 'books',
      partition: p,
      fromOffset: victim.offset,
      toOffset: victim.offset + 1,
      file: victim.file,
      position: victim.position,
    });
    expect(s.problems.join('\n')).toContain(`books/${p}`);
    expect(s.feed.health().status).toBe('degraded');
    await s.close();
    // The next writer cuts nothing: the damage stays (reported), every valid entry after it stays.
    const writer = new EmbeddedLog({ dataDir: dir, onProblem: () => undefined });
    await logSink(writer).write(moreBooks(SPEC.bookRecords, 200));
    expect(writer.repairedBytes('books')).toEqual([0, 0, 0, 0]);
    await writer.close();
    const after = readFrames(dir);
    expect(after[`books/${p}`]!.length).toBeGreaterThan(list.length);
    const again = await serve(dir);
    expect(bookHashes(again.feed.cache)).toEqual(
      bookHashes(expectedFold(after, new Set([`books/${p}@${victim.offset}`]))),
    );
    expect(again.health().damagedEntries).toBe(1);
    await again.close();
  });

  it('a flipped byte in a venues partition (no index entries): the market records after it are still folded', async () => {
    const { dir, frames } = await fixture();
    const list = frames['venues/0']!;
    const victim = list[1]!;
    flipByte(victim.file, victim.position + 12);
    const s = await serve(dir);
    const expected = expectedFold(frames, new Set([`venues/0@${victim.offset}`]));
    expect(bookHashes(s.feed.cache)).toEqual(bookHashes(expected));
    // Fees of the markets listed after the damaged record are the venue's, not the default.
    for (const f of list.slice(2)) {
      const r = JSON.parse(f.value) as {
        type: string;
        exchangeId: string;
        symbol?: string;
        takerFeeRate?: number;
      };
      if (r.type !== 'market') continue;
      expect(s.feed.cache.market(r.exchangeId, r.symbol!)?.takerFeeRate).toBe(r.takerFeeRate);
    }
    expect(s.health().damage).toMatchObject([{ topic: 'venues', partition: 0, fromOffset: victim.offset }]);
    await s.close();
  });

  it('a torn tail: the incomplete last frame is not served, not reported as damage, and cut (loudly) by the next writer', async () => {
    const { dir, frames } = await fixture();
    const p = busiest(dir);
    const list = frames[`books/${p}`]!;
    const last = list[list.length - 1]!;
    truncateSync(last.file, last.position + Math.floor(last.size / 2));
    const s = await serve(dir);
    expect(bookHashes(s.feed.cache)).toEqual(
      bookHashes(expectedFold(frames, new Set([`books/${p}@${last.offset}`]))),
    );
    expect(s.health().damagedEntries).toBe(0);
    await s.close();
    const notes: string[] = [];
    const writer = new EmbeddedLog({ dataDir: dir, onProblem: (m) => notes.push(m) });
    await logSink(writer).write(moreBooks(SPEC.bookRecords, 100));
    expect(writer.repairedBytes('books')[p]).toBe(Math.floor(last.size / 2));
    expect(notes.join('\n')).toMatch(
      new RegExp(`books/${p}: cut a torn tail of ${Math.floor(last.size / 2)} bytes`),
    );
    await writer.close();
    // The next entry took the torn one's offset: offsets stay contiguous.
    const after = rawFrames(join(dir, 'books', String(p)));
    expect(after.map((f) => f.offset)).toEqual(after.map((_, i) => i));
  });

  it('a truncated sealed segment: the entries it lost are named, every later segment is read', async () => {
    const { dir, frames } = await fixture();
    const p = busiest(dir);
    const segs = segments(join(dir, 'books', String(p)));
    expect(segs.length).toBeGreaterThan(2);
    const list = frames[`books/${p}`]!;
    const inFirst = list.filter((f) => f.file === segs[0]);
    const cutAt = inFirst[Math.floor(inFirst.length / 2)]!;
    truncateSync(segs[0]!, cutAt.position);
    const lost = new Set(
      inFirst.filter((f) => f.offset >= cutAt.offset).map((f) => `books/${p}@${f.offset}`),
    );
    const s = await serve(dir);
    expect(bookHashes(s.feed.cache)).toEqual(bookHashes(expectedFold(frames, lost)));
    expect(s.health().damage).toMatchObject([
      { topic: 'books', partition: p, fromOffset: cutAt.offset, toOffset: cutAt.offset + lost.size },
    ]);
    expect(s.health().damagedEntries).toBe(lost.size);
    await s.close();
  });

  it('a shifted index entry: reads from any offset stay right, and the writer re-creates the entry instead of cutting', async () => {
    const { dir, frames } = await fixture();
    // A partition with a sealed segment and index entries in its active one.
    const idxOf = (log: string): string => log.replace(/\.log$/, '.idx');
    const p = [0, 1, 2, 3].find((q) => {
      const segs = segments(join(dir, 'books', String(q)));
      return segs.length > 1 && readFileSync(idxOf(segs[segs.length - 1]!)).length >= 8;
    })!;
    expect(p).toBeDefined();
    const segs = segments(join(dir, 'books', String(p)));
    const sealedIdx = idxOf(segs[0]!);
    const activeIdx = idxOf(segs[segs.length - 1]!);
    const entries = readFileSync(activeIdx).length / 8;
    const sealedEntries = readFileSync(sealedIdx).length / 8;
    expect(sealedEntries).toBeGreaterThan(0);
    shiftIndexEntry(sealedIdx, Math.floor(sealedEntries / 2), 5);
    shiftIndexEntry(activeIdx, entries - 1, 3);
    const list = frames[`books/${p}`]!;
    const notes: string[] = [];
    const reader = new EmbeddedLog({ dataDir: dir, onProblem: (m) => notes.push(m) });
    for (const at of [0, 5, Math.floor(list.length / 2), list.length - 3])
      expect((await reader.read('books', p, at)).map((e) => e.offset)).toEqual(
        list.slice(at).map((f) => f.offset),
      );
    expect(reader.health().damagedEntries).toBe(0);
    expect(notes.some((n) => n.includes('holds no such frame'))).toBe(true);
    await reader.close();
    const writer = new EmbeddedLog({ dataDir: dir, onProblem: (m) => notes.push(m) });
    await logSink(writer).write(moreBooks(SPEC.bookRecords, 50));
    expect(writer.repairedBytes('books')).toEqual([0, 0, 0, 0]);
    await writer.close();
    expect(notes.some((n) => n.includes('re-created from the segment'))).toBe(true);
    const s = await serve(dir);
    expect(bookHashes(s.feed.cache)).toEqual(bookHashes(expectedFold(readFrames(dir))));
    await s.close();
  });

  it('a stray file named like a segment: readers ignore it and say so, a writer refuses naming it', async () => {
    const { dir, frames } = await fixture();
    const stray = join(dir, 'books', '1', '00000000000000099999.log');
    writeFileSync(stray, Buffer.from('{"not":"a segment"}\n'.repeat(40)));
    const empty = join(dir, 'books', '2', '00000000000000088888.log');
    writeFileSync(empty, '');
    const s = await serve(dir);
    expect(bookHashes(s.feed.cache)).toEqual(bookHashes(expectedFold(frames)));
    expect(s.problems.join('\n')).toContain(`${stray} is named like a segment`);
    expect(s.feed.health().status).toBe('degraded');
    await s.close();
    const writer = new EmbeddedLog({ dataDir: dir, onProblem: () => undefined });
    await expect(logSink(writer).write(moreBooks(SPEC.bookRecords, 10))).rejects.toThrow(
      new RegExp(`${stray}|${empty}`),
    );
    // Once the operator moves them away, writing goes on where the log really ends.
    renameSync(stray, `${dir}/stray-1.log`);
    unlinkSync(empty);
    await logSink(writer).write(moreBooks(SPEC.bookRecords, 10));
    await writer.close();
    for (let p = 0; p < 4; p++) {
      const after = rawFrames(join(dir, 'books', String(p)));
      expect(after.map((f) => f.offset)).toEqual(after.map((_, i) => i));
    }
  });

  it('a topic.json that disagrees with the partition directories, or is unreadable, refuses start-up naming the file', async () => {
    const { dir } = await fixture();
    const topicJson = join(dir, 'books', 'topic.json');
    writeFileSync(topicJson, '{"partitions": 2}\n');
    await expect(serve(dir, true, 10_000)).rejects.toThrow(
      `${topicJson} says 2 partitions but ${join(dir, 'books')} holds partition directories 0..3`,
    );
    writeFileSync(topicJson, '{"partitions": 8}\n');
    await expect(serve(dir, true, 10_000)).rejects.toThrow(/says 8 partitions/);
    writeFileSync(topicJson, '{"partitions": 4');
    await expect(serve(dir, true, 10_000)).rejects.toThrow(new RegExp(`${topicJson} is unreadable`));
    unlinkSync(topicJson);
    await expect(serve(dir, true, 10_000)).rejects.toThrow(new RegExp(`${topicJson} is missing`));
  });

  it('a deleted snapshots.idx: the books are still rebuilt from snapshots (found by a scan), and the writer rebuilds the file', async () => {
    const { dir, frames } = await fixture();
    const idx = join(dir, 'books', '1', 'snapshots.idx');
    const original = readFileSync(idx);
    unlinkSync(idx);
    const s = await serve(dir, true);
    expect(bookHashes(s.feed.cache)).toEqual(bookHashes(expectedFold(frames)));
    expect(s.feed.health().booksNotRebuilt).toEqual([]);
    expect(s.problems.join('\n')).toContain(`${idx} is missing`);
    await s.close();
    const notes: string[] = [];
    const writer = new EmbeddedLog({ dataDir: dir, onProblem: (m) => notes.push(m) });
    await logSink(writer).write(moreBooks(SPEC.bookRecords, 1));
    await writer.close();
    expect(existsSync(idx)).toBe(true);
    expect(notes.join('\n')).toContain(`${idx} was missing; rebuilt from the segments of books/1`);
    // The same marks the first writer made (a new mark may follow them).
    expect(readFileSync(idx).subarray(0, original.length)).toEqual(original);
  });
});
