import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeedProgress } from './feed-progress';

/** A logger that keeps what start-up said, by level. */
function lines(): { log: string[]; warn: string[]; error: string[] } {
  return { log: [], warn: [], error: [] };
}

describe('FeedProgress: start-up says what it rebuilds, how far it got, and when it stalls', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  const progress = (said: ReturnType<typeof lines>): FeedProgress =>
    new FeedProgress({
      log: (m) => said.log.push(m),
      warn: (m) => said.warn.push(m),
      error: (m) => said.error.push(m),
    });

  it('names each topic it rebuilds, from where to where, and how many entries that is', () => {
    const said = lines();
    const p = progress(said);
    p.plan('books', [10, 0], [110, 50], true);
    p.plan('venues', [0], [7], false);
    expect(said.log).toEqual([
      'rebuilding books from the latest snapshots: 150 entries over 2 partitions (positions [10,0] to [110,50])',
      'rebuilding venues from the start: 7 entries over 1 partitions (positions [0] to [7])',
    ]);
  });

  it('reports progress at most every 5 s, as a share of everything planned', () => {
    const said = lines();
    const p = progress(said);
    p.plan('books', [0], [200], false);
    said.log.length = 0;
    p.applied(10);
    vi.advanceTimersByTime(4_999);
    p.applied(40);
    expect(said.log).toEqual([]);
    vi.advanceTimersByTime(1);
    p.applied(50);
    expect(said.log).toEqual(['rebuilding: 50 of 200 entries applied (25%)']);
  });

  it('warns with the positions it waits at once nothing moved for 15 s, and is quiet again while entries flow', () => {
    const said = lines();
    const p = progress(said);
    let done = 0;
    p.watch(
      () => done,
      () => ({ books: [3, 4] }),
    );
    vi.advanceTimersByTime(14_000);
    expect(said.warn).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(said.warn).toEqual([
      'book feed start-up: no entry applied for 15 s; waiting for the log at positions {"books":[3,4]}',
    ]);
    // Entries applied every second: no warning, however long it runs.
    for (let s = 0; s < 30; s++) {
      done++;
      vi.advanceTimersByTime(1_000);
    }
    expect(said.warn).toHaveLength(1);
    // Stopped: the watch ends and the elapsed time is returned.
    expect(p.stop()).toBe(45_000);
    vi.advanceTimersByTime(60_000);
    expect(said.warn).toHaveLength(1);
  });
});
