import { describe, expect, it } from 'vitest';
import { clientAddress, requestIdFrom } from './request-gate';

describe('clientAddress', () => {
  const none = new Set<string>();
  it('accepts IPv4 and ::ffff:-mapped IPv4, refuses IPv6', () => {
    expect(clientAddress('10.0.0.7', undefined, none)).toBe('10.0.0.7');
    expect(clientAddress('::ffff:127.0.0.1', undefined, none)).toBe('127.0.0.1');
    expect(clientAddress('::1', undefined, none)).toBeNull();
    expect(clientAddress('2001:db8::1', undefined, none)).toBeNull();
    expect(clientAddress(undefined, undefined, none)).toBeNull();
  });

  it('ignores x-forwarded-for unless the peer is a trusted proxy', () => {
    expect(clientAddress('10.0.0.1', '1.2.3.4', none)).toBe('10.0.0.1');
    const trusted = new Set(['10.0.0.1', '10.0.0.2']);
    expect(clientAddress('::ffff:10.0.0.1', '9.9.9.9, 1.2.3.4, 10.0.0.2', trusted)).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.1', '2001:db8::5', trusted)).toBeNull();
  });
});

describe('requestIdFrom', () => {
  it('keeps ^[\\w.-]{1,200}$ and mints a UUID otherwise', () => {
    expect(requestIdFrom('abc-1.2_x')).toBe('abc-1.2_x');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(201), ['a', 'b']])
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
