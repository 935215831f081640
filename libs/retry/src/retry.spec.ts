import { describe, expect, it } from 'vitest';
import { asError, Backoff, errorMessage, retry, sleep, type RetryTime } from './index';

/** A clock that advances only when a retry waits: a schedule runs in one turn, its pauses recorded. */
function fakeTime(): RetryTime & { at: number; slept: number[] } {
  const t = {
    at: 0,
    slept: [] as number[],
    now: () => t.at,
    sleep: (ms: number) => {
      t.at += ms;
      t.slept.push(ms);
      return Promise.resolve();
    },
  };
  return t;
}

/** A call that fails `n` times (with `error`), then answers its attempt number. */
function failing(n: number, error: Error = new Error('down')): (attempt: number) => Promise<number> {
  return (attempt) => (attempt < n ? Promise.reject(error) : Promise.resolve(attempt));
}

describe('retry', () => {
  it('retries with full-jitter pauses under a doubling, capped ceiling, from the injected randomness', async () => {
    const time = fakeTime();
    const policy = { initialMs: 100, maxMs: 1_000, random: () => 0.5, time };
    expect(await retry(failing(6), policy)).toBe(6);
    expect(time.slept).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('gives up after `attempts` calls with the last failure, as thrown', async () => {
    const time = fakeTime();
    const last = new Error('still down');
    let calls = 0;
    const call = (): Promise<never> => {
      calls++;
      return Promise.reject(calls === 3 ? last : new Error('down'));
    };
    // Randomness injected: full jitter under 10 ms draws a pause of 0 (no sleep) one time in ten.
    const policy = { initialMs: 10, maxMs: 10, attempts: 3, random: () => 0.5, time };
    await expect(retry(call, policy)).rejects.toBe(last);
    expect(calls).toBe(3);
    expect(time.slept).toEqual([5, 5]);
  });

  it('throws at once a failure retryIf refuses, without a pause', async () => {
    const time = fakeTime();
    const fatal = new Error('authorization failed');
    const retryIf = (e: unknown): boolean => e !== fatal;
    await expect(retry(failing(1, fatal), { initialMs: 10, maxMs: 10, retryIf, time })).rejects.toBe(fatal);
    expect(time.slept).toEqual([]);
    expect(await retry(failing(2), { initialMs: 10, maxMs: 10, retryIf, time })).toBe(2);
  });

  it('starts no retry past withinMs after the first call', async () => {
    const time = fakeTime();
    const call = failing(100);
    await expect(
      retry(call, { initialMs: 100, maxMs: 100, withinMs: 1_000, random: () => 0.999, time }),
    ).rejects.toThrow('down');
    // Pauses of 99 ms: the tenth retry would start at 990 ms, the eleventh past 1 s.
    expect(time.slept).toHaveLength(10);
    expect(time.at).toBeLessThanOrEqual(1_000);
  });

  it('never pauses under the policy floor or the failure’s own floor (a Retry-After)', async () => {
    const time = fakeTime();
    const limited = Object.assign(new Error('429'), { retryAfterMs: 700 });
    let n = 0;
    const call = (): Promise<string> =>
      n++ === 0 ? Promise.reject(limited) : n < 3 ? Promise.reject(new Error('x')) : Promise.resolve('ok');
    const floorOf = (e: unknown): number => (e as { retryAfterMs?: number }).retryAfterMs ?? 0;
    expect(
      await retry(call, { initialMs: 100, maxMs: 100, floorMs: 30, floorOf, random: () => 0, time }),
    ).toBe('ok');
    expect(time.slept).toEqual([700, 30]);
  });

  it('tells onRetry each failure it retries, with the attempt and the pause ahead', async () => {
    const time = fakeTime();
    const told: [number, number][] = [];
    await retry(failing(2), {
      initialMs: 100,
      maxMs: 1_000,
      random: () => 0.5,
      time,
      onRetry: (_e, attempt, delay) => void told.push([attempt, delay]),
    });
    expect(told).toEqual([
      [0, 50],
      [1, 100],
    ]);
  });

  it('stops when the signal aborts: a pause ends at once and the last failure is thrown', async () => {
    const stop = new AbortController();
    const started = performance.now();
    const pending = retry(failing(Infinity), {
      initialMs: 60_000,
      maxMs: 60_000,
      floorMs: 60_000,
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 20);
    await expect(pending).rejects.toThrow('down');
    expect(performance.now() - started).toBeLessThan(5_000);
    let calls = 0;
    await expect(
      retry(
        () => {
          calls++;
          return Promise.reject(new Error('down'));
        },
        { initialMs: 1, maxMs: 1, signal: stop.signal },
      ),
    ).rejects.toThrow('down');
    expect(calls).toBe(1);
  });
});

describe('Backoff', () => {
  it('draws each failure’s pause under its own ceiling and starts over after a reset', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1_000 }, () => 0.5);
    expect([b.next(), b.next(), b.next()]).toEqual([50, 100, 200]);
    expect(b.attempt).toBe(3);
    expect(b.next(900)).toBe(900);
    b.reset();
    expect(b.next()).toBe(50);
  });
});

describe('sleep', () => {
  it('ends early, resolved, when its signal aborts', async () => {
    const stop = new AbortController();
    const started = performance.now();
    setTimeout(() => stop.abort(), 10);
    await sleep(60_000, stop.signal);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('what a caught value says', () => {
  it('is an Error’s message, or any other value as text, and an Error either way', () => {
    expect(errorMessage(new RangeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage({ code: 7 })).toBe('[object Object]');
    const e = new Error('kept');
    expect(asError(e)).toBe(e);
    expect(asError(42)).toEqual(new Error('42'));
  });
});
