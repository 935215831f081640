import { describe, expect, it } from 'vitest';
import { RecentKeys } from './recent-keys';

describe('RecentKeys', () => {
  it('holds the newest keys only, a reused key counting as new', () => {
    const keys = new RecentKeys(4);
    for (const [i, k] of ['a', 'b', 'c'].entries()) keys.set(k, i);
    keys.set('a', 3); // reused: its newest leaf
    keys.set('d', 4);
    // Generations of two: {a, b} went when {c, a} filled, {c, a} is kept while {d} fills.
    expect(['a', 'b', 'c', 'd'].map((k) => keys.get(k))).toEqual([3, undefined, 2, 4]);
  });

  it('takes a million keys in linear time and keeps between max/2 and max of them', () => {
    const keys = new RecentKeys(1000);
    for (let i = 0; i < 1_000_000; i++) keys.set(`k${i}`, i);
    expect(keys.get('k999999')).toBe(999_999);
    // A generation has just been completed: the newest 500 are held, the one before them is not.
    expect(keys.get('k999500')).toBe(999_500);
    expect(keys.get('k999499')).toBeUndefined();
  });
});
