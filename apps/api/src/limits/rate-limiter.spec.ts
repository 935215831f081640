import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from './rate-limiter';

describe('FixedWindowLimiter', () => {
  it('opens the window at the first request and admits exactly `limit` in 1000 ms', () => {
    const l = new FixedWindowLimiter(2);
    expect(l.hit('1.1.1.1', 500)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSec: 1 });
    expect(l.hit('1.1.1.1', 900).allowed).toBe(true);
    expect(l.hit('1.1.1.1', 1499)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSec: 1 });
    // Another address has its own window.
    expect(l.hit('2.2.2.2', 1499).allowed).toBe(true);
    // 1000 ms after the first request a new window opens.
    expect(l.hit('1.1.1.1', 1500)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('reset is whole seconds rounded up and at least 1', () => {
    const l = new FixedWindowLimiter(1, 2500);
    expect(l.hit('a', 0).resetSec).toBe(3);
    expect(l.hit('a', 1600).resetSec).toBe(1);
    expect(l.hit('a', 2499.9).resetSec).toBe(1);
  });
});
