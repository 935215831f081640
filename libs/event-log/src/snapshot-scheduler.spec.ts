import { describe, expect, it } from 'vitest';
import { SnapshotScheduler } from './snapshot-scheduler';

describe('SnapshotScheduler', () => {
  it('asks for a snapshot first, then every N deltas', () => {
    const s = new SnapshotScheduler({ everyDeltas: 3, everyMs: 60_000 });
    expect(s.due('a|X/Y', 0)).toBe(true);
    s.written('a|X/Y', true, 0);
    for (let i = 0; i < 2; i++) {
      s.written('a|X/Y', false, i + 1);
      expect(s.due('a|X/Y', i + 1)).toBe(false);
    }
    s.written('a|X/Y', false, 3);
    expect(s.due('a|X/Y', 3)).toBe(true);
    s.written('a|X/Y', true, 4);
    expect(s.due('a|X/Y', 4)).toBe(false);
  });

  it('asks for a snapshot after T ms and lists due books sorted', () => {
    const s = new SnapshotScheduler({ everyDeltas: 1000, everyMs: 100 });
    s.written('b|X/Y', true, 0);
    s.written('a|X/Y', true, 0);
    s.written('c|X/Y', true, 0);
    s.written('b|X/Y', false, 10);
    s.written('a|X/Y', false, 10);
    expect(s.due('a|X/Y', 99)).toBe(false);
    expect(s.due('a|X/Y', 100)).toBe(true);
    // c has no deltas since its snapshot: nothing to refresh
    expect(s.dueByTime(150)).toEqual(['a|X/Y', 'b|X/Y']);
  });

  it('rejects a bad policy', () => {
    expect(() => new SnapshotScheduler({ everyDeltas: 0, everyMs: 1 })).toThrow(/everyDeltas/);
    expect(() => new SnapshotScheduler({ everyDeltas: 1, everyMs: NaN })).toThrow(/everyMs/);
  });
});
