import { describe, expect, it } from 'vitest';
import { murmur2, partitionFor } from './partitioner';

describe('partitionFor', () => {
  it('matches Kafka Java murmur2 test vectors (org.apache.kafka.common.utils.UtilsTest)', () => {
    const h = (s: string): number => murmur2(Buffer.from(s));
    expect(h('21')).toBe(-973932308);
    expect(h('foobar')).toBe(-790332482);
    expect(h('a-little-bit-long-string')).toBe(-985981536);
    expect(h('a-little-bit-longer-string')).toBe(-1486304829);
    expect(h('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8')).toBe(-58897971);
    expect(h('abc')).toBe(479470107);
  });

  it('is deterministic and within range', () => {
    for (const key of ['binance|BTC/USDT', 'kraken|ETH/USD', 'x']) {
      const p = partitionFor(key, 7);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(7);
      expect(partitionFor(key, 7)).toBe(p);
    }
  });

  it('hashes ASCII and non-ASCII keys as their UTF-8 bytes (the Java partitioner)', () => {
    const keys = ['binance|BTC/USDT', 'a', '', 'bücher|€/USDT', 'x|😀', 'k'.repeat(700)];
    for (const key of keys)
      for (const n of [1, 3, 8, 13])
        expect(partitionFor(key, n)).toBe((murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % n);
  });

  it('rejects a bad partition count', () => {
    expect(() => partitionFor('k', 0)).toThrow(/positive integer/);
  });
});
