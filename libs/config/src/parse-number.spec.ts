import { describe, expect, it } from 'vitest';
import { parseNumber } from './parse-number';

const int = { integer: true, min: 0, max: 65535 };
const dec = { integer: false, min: 0, max: 0.5 };

describe('parseNumber', () => {
  it('reads plain notation within the bounds', () => {
    expect(parseNumber('8080', int)).toEqual({ value: 8080 });
    expect(parseNumber('+0', int)).toEqual({ value: 0 });
    expect(parseNumber('0.001', dec)).toEqual({ value: 0.001 });
    expect(parseNumber('.5', dec)).toEqual({ value: 0.5 });
    expect(parseNumber('1e-3', dec)).toEqual({ value: 0.001 });
    expect(parseNumber('-3', { integer: true, min: -5, max: 5 })).toEqual({ value: -3 });
  });

  it('tells a value not written as a number from one out of bounds', () => {
    for (const raw of ['', ' 1', '1 ', '0x10', '1e3', '1.0', 'Infinity', '-1', '-0', 'NaN', '1_000'])
      expect(parseNumber(raw, int), raw).toEqual({ problem: 'syntax' });
    for (const raw of ['0x1', '-0.1', '1,5', '.', 'e3'])
      expect(parseNumber(raw, dec), raw).toEqual({ problem: 'syntax' });
    expect(parseNumber('65536', int)).toEqual({ problem: 'range' });
    expect(parseNumber('0.6', dec)).toEqual({ problem: 'range' });
    expect(parseNumber('1e999', dec)).toEqual({ problem: 'range' });
    expect(parseNumber('-6', { integer: true, min: -5, max: 5 })).toEqual({ problem: 'range' });
  });
});
