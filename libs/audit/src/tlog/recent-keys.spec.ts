import { describe, expect, it } from 'vitest';
import { RecentKeys } from './recent-keys';

describe('RecentKeys', () => {
  it('holds the newest keys only, a reused key counting as new', () => {
    const keys = new RecentKeys(3);
    for (const [i, k] of ['a', 'b', 'c'].entries()) keys.set(k, i);
    keys.set('a', 3); // reused: now the newest
    keys.set('d', 4); // pushes out b, the oldest
    expect(['a', 'b', 'c', 'd'].map((k) => keys.get(k))).toEqual([3, undefined, 2, 4]);
  });
});
