import { describe, expect, it } from 'vitest';
import { pickShed, SHED_MIN_AGE_MS, SHED_SCAN, type Holder } from './connection-budget';

const holder = (name: string, acceptedAt: number, bytes: number, answering = false) => ({
  name,
  acceptedAt,
  bytesRead: () => bytes,
  answering: () => answering,
});
const NOW = 100_000;

describe('pickShed', () => {
  it('sheds the connection that sent the fewest bytes per second held; never one being answered', () => {
    const holders = [
      holder('busy', 0, 0, true),
      holder('fast', 10_000, 90_000),
      holder('trickle', 40_000, 600),
      holder('idle', 90_000, 100),
    ];
    // trickle: 600 B / 60 s = 10 B/s; idle keep-alive: 100 B / 10 s = 10 B/s too: the older goes.
    expect(pickShed(holders, NOW)?.name).toBe('trickle');
    expect(pickShed([holders[0]!, holders[1]!, holders[3]!], NOW)?.name).toBe('idle');
  });

  it(`spares connections younger than ${SHED_MIN_AGE_MS} ms (a newcomer gets time to send) and answers in progress`, () => {
    expect(pickShed([holder('young', NOW - SHED_MIN_AGE_MS + 1, 0)], NOW)).toBeNull();
    expect(pickShed([holder('busy', 0, 0, true)], NOW)).toBeNull();
    expect(pickShed([holder('old enough', NOW - SHED_MIN_AGE_MS, 0)], NOW)?.name).toBe('old enough');
  });

  it(`looks at the ${SHED_SCAN} oldest only (bounded work per newcomer)`, () => {
    const many: (Holder & { name: string })[] = Array.from({ length: SHED_SCAN }, (_, i) =>
      holder(`h${i}`, i, 1_000_000),
    );
    many.push(holder('beyond', SHED_SCAN, 0));
    // 'beyond' sent nothing at all, but it is not looked at: of those looked at, h0 sent least per second.
    expect(pickShed(many, NOW)?.name).toBe('h0');
  });
});
